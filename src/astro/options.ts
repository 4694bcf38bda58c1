/**
 * The options of `docdbLoader`, checked when `content.config.ts` is loaded (before any request), each error
 * naming the option and what it takes; the token and the API URL come from the environment when not given.
 */
import { tokenFromEnvironment } from '../core/env-token.js';
import { InvalidConfig, type InvalidIdentity } from '../core/errors.js';
import { sectionRef } from '../core/refname.js';
import { assertValidIdentity } from '../document/identity.js';
import { DEFAULT_API_URL } from '../stores/remote-api/config.js';

export interface DocdbLoaderOptions {
  /** The repository holding the section: `owner/name`. */
  repo: string;
  /** The section: `refs/<root>/<section>` (default `documents`). */
  section?: string;
  /** The ref root (default `docdb`). */
  root?: string;
  /** The documents' namespace. */
  namespace: string;
  /** The documents' type: the collection holds one type. */
  type: string;
  /**
   * A token (default: `$GITHUB_TOKEN`, else `$GH_TOKEN`; none reads a public repository anonymously). Prefer the
   * environment: a token written into `content.config.ts` ends up in the repository.
   */
  token?: string;
  /** The GitHub API (default: `$GITHUB_API_URL`, else `https://api.github.com`; GHES: `https://HOST/api/v3`). */
  apiUrl?: string;
}

/** The options resolved for one load: where, what, and the token (never logged). */
export interface ResolvedLoaderOptions {
  owner: string;
  repo: string;
  ref: string;
  namespace: string;
  type: string;
  apiUrl: string;
  token: string | undefined;
}

const REPO = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,98})\/[A-Za-z0-9._-]{1,100}$/;

/**
 * Check the options that do not depend on the environment (throws `InvalidConfig` naming the option).
 *
 * @example
 * checkLoaderOptions({ repo: 'octo/data', namespace: 'github', type: 'repo' });
 */
export function checkLoaderOptions(o: DocdbLoaderOptions): void {
  if (typeof o !== 'object' || o === null) {
    throw new InvalidConfig('options', 'docdbLoader takes { repo, namespace, type, section?, root?, token?, apiUrl? }');
  }
  if (typeof o.repo !== 'string' || !REPO.test(o.repo)) {
    throw new InvalidConfig('repo', `docdbLoader: repo ${JSON.stringify(o.repo)} must be "owner/name"`, {
      allowed: 'owner/name',
    });
  }
  for (const field of ['namespace', 'type'] as const) {
    if (typeof o[field] !== 'string' || o[field] === '') {
      throw new InvalidConfig(field, `docdbLoader: ${field} is required (a string): the collection holds one type`);
    }
  }
  try {
    assertValidIdentity({ namespace: o.namespace, doc_type: o.type, id: 'x' });
  } catch (e) {
    const field = (e as InvalidIdentity).data?.field === 'doc_type' ? 'type' : 'namespace';
    throw new InvalidConfig(field, `docdbLoader: ${field}: ${(e as Error).message}`);
  }
  for (const field of ['section', 'root', 'token', 'apiUrl'] as const) {
    if (o[field] !== undefined && (typeof o[field] !== 'string' || o[field] === '')) {
      throw new InvalidConfig(field, `docdbLoader: ${field} must be a non-empty string when given`);
    }
  }
  refOf(o);
}

/**
 * The options with the environment's defaults (`env`: the process environment at load time).
 *
 * @example
 * const r = resolveLoaderOptions({ repo: 'octo/data', namespace: 'github', type: 'repo' }, process.env);
 * r.ref; // 'refs/docdb/documents'
 */
export function resolveLoaderOptions(
  o: DocdbLoaderOptions,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedLoaderOptions {
  const [owner, repo] = o.repo.split('/') as [string, string];
  return {
    owner,
    repo,
    ref: refOf(o),
    namespace: o.namespace,
    type: o.type,
    apiUrl: (o.apiUrl ?? (env.GITHUB_API_URL || DEFAULT_API_URL)).replace(/\/+$/, ''),
    token: o.token ?? tokenFromEnvironment(env).token,
  };
}

function refOf(o: DocdbLoaderOptions): string {
  try {
    return sectionRef(o.root ?? 'docdb', o.section ?? 'documents');
  } catch (e) {
    throw new InvalidConfig('section', `docdbLoader: section/root: ${(e as Error).message}`);
  }
}
