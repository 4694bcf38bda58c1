/**
 * `docdb doc get`: read one document envelope from a section ref through the GitHub API
 * (DocumentStore.get → RemoteApiRefStore.get: ref, commit, tree, blob).
 */
import { InvalidConfig } from '../../core/errors.js';
import { sectionRef } from '../../core/refname.js';
import { DocumentStore, type Envelope } from '../../document/index.js';
import { RemoteApiRefStore } from '../../stores/remote-api/index.js';
import { fetchTransport } from '../../transport/fetch.js';
import type { CliCommand } from '../command.js';

export interface ReadDocumentOptions {
  /** API base URL (default https://api.github.com). */
  apiUrl?: string;
  /** `owner/name` of the repository holding the section. */
  repository: string;
  /** Full section ref, e.g. `refs/docdb/documents`. */
  ref: string;
  token?: string;
  namespace: string;
  type: string;
  id: string;
  /** Read at this commit of the section instead of the tip. */
  version?: string;
}

/**
 * Read one document; `null` when it does not exist.
 *
 * @example
 * const env = await readDocument({ repository: 'octo-org/widgets', ref: 'refs/docdb/documents',
 *   namespace: 'github', type: 'repo', id: 'octo-org/widgets' });
 */
export async function readDocument(
  options: ReadDocumentOptions,
): Promise<{ envelope: Envelope | null; requests: number }> {
  const [owner, repo] = splitRepo(options.repository);
  let requests = 0;
  const base = fetchTransport();
  const store = new RemoteApiRefStore({
    transport: {
      request: (req) => {
        requests++;
        return base.request(req);
      },
    },
    apiUrl: options.apiUrl ?? 'https://api.github.com',
    owner,
    repo,
    ref: options.ref,
    ...(options.token ? { token: options.token } : {}),
  });
  const envelope = await new DocumentStore(store).get(
    { namespace: options.namespace, doc_type: options.type, id: options.id },
    options.version ? { version: options.version } : {},
  );
  return { envelope, requests };
}

function splitRepo(full: string): [string, string] {
  const m = /^([A-Za-z0-9][A-Za-z0-9-]*)\/([A-Za-z0-9._-]+)$/.exec(full);
  if (!m) {
    throw new InvalidConfig('repo', `--repo ${JSON.stringify(full)} must be "owner/name"`, { allowed: 'owner/name' });
  }
  return [m[1]!, m[2]!];
}

const USAGE = `usage: docdb doc get --namespace <ns> --type <type> --id <id> [--version <sha>]
                    [--repo owner/name] [--api-url URL] [--ref refs/<root>/<section> | --root docdb --section documents]
                    [--token-env NAME]

Reads one document envelope { namespace, type, id, version, data } and prints it as JSON.
Without --version the read uses the section's current tip; with it, that commit of the section ref.

  --repo        repository holding the section (default: $GITHUB_REPOSITORY)
  --api-url     GitHub API base URL (default: $GITHUB_API_URL or https://api.github.com)
  --ref         full section ref (default refs/<root>/<section> = refs/docdb/documents)
  --token-env   environment variable holding the token (default GITHUB_TOKEN; public repositories need none)`;

export const command: CliCommand = {
  usage: USAGE,
  options: {
    namespace: { type: 'string' },
    type: { type: 'string' },
    id: { type: 'string' },
    version: { type: 'string' },
    repo: { type: 'string' },
    'api-url': { type: 'string' },
    ref: { type: 'string' },
    root: { type: 'string' },
    section: { type: 'string' },
    'token-env': { type: 'string' },
  },
  async run(values, positionals) {
    const [sub] = positionals;
    if (sub !== 'get') {
      console.error(`docdb doc: unknown subcommand ${JSON.stringify(sub ?? '')} (only "get")\n\n${USAGE}`);
      return 2;
    }
    const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
    for (const k of ['namespace', 'type', 'id']) {
      if (!str(k)) {
        console.error(`docdb doc get: --${k} is required\n\n${USAGE}`);
        return 2;
      }
    }
    const repository = str('repo') ?? process.env.GITHUB_REPOSITORY;
    if (!repository) {
      console.error('docdb doc get: --repo owner/name is required (GITHUB_REPOSITORY is not set)');
      return 2;
    }
    if (str('ref') && (str('root') || str('section'))) {
      console.error('docdb doc get: give either --ref or --root/--section, not both');
      return 2;
    }
    const ref = str('ref') ?? sectionRef(str('root') ?? 'docdb', str('section') ?? 'documents');
    const tokenEnv = str('token-env') ?? 'GITHUB_TOKEN';
    const token = process.env[tokenEnv] || undefined;
    const version = str('version');
    const { envelope } = await readDocument({
      apiUrl: str('api-url') ?? process.env.GITHUB_API_URL ?? 'https://api.github.com',
      repository,
      ref,
      ...(token ? { token } : {}),
      namespace: str('namespace')!,
      type: str('type')!,
      id: str('id')!,
      ...(version ? { version } : {}),
    });
    if (!envelope) {
      console.error(
        `docdb doc get: document ${str('namespace')}/${str('type')}/${str('id')} not found in ${repository} ${ref}${version ? ` at ${version}` : ''}`,
      );
      return 1;
    }
    console.log(JSON.stringify(envelope, null, 2));
    return 0;
  },
};
