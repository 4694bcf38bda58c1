/**
 * The one place the CLI builds a RefStore from flags, shared by every command:
 * `--refstore api` (default; GitHub's Git Database API: `--repo`, `--api-url`),
 * `--refstore git` (a local repository: `--git-dir`), `--refstore subprocess` (any git remote:
 * `--remote`, cache in `--git-dir`), `--refstore git-http` (any git server over smart HTTP, no git
 * binary: `--remote`); the section is `--ref`, or `--root`/`--section`.
 */
import { AuthInvalid, Forbidden, InvalidConfig, TransportError } from '../core/errors.js';
import { assertNotReservedRef, reservedSpaceProblem, sectionRef } from '../core/refname.js';
import type { RefStore } from '../core/refstore.js';
import { GitRefStore, SubprocessGitRefStore } from '../stores/git/index.js';
import { GitHttpRefStore } from '../stores/git-http/index.js';
import { RemoteApiRefStore } from '../stores/remote-api/index.js';
import { nodeArchiveReader } from '../stores/remote-api/node-archive.js';
import { fetchTransport } from '../transport/fetch.js';
import { type FlagSpecs, type FlagValues, str } from './args.js';
import { type CliIo, UsageError } from './io.js';
import { type GhRunner, ghHostFor, resolveToken } from './token.js';
import { resolveRemoteToken } from './token-remote.js';

export const REFSTORES = ['api', 'git', 'subprocess', 'git-http'] as const;
export type RefStoreKind = (typeof REFSTORES)[number];

/** Flags that pick the section's store. */
export const STORE_FLAGS: FlagSpecs = {
  refstore: { type: 'string', description: 'api (default) | git | subprocess | git-http' },
  repo: { type: 'string', description: 'owner/name (api; default $GITHUB_REPOSITORY)' },
  'api-url': { type: 'string', description: 'GitHub API URL (api; default $GITHUB_API_URL or https://api.github.com)' },
  ref: { type: 'string', description: 'full section ref (default refs/docdb/documents)' },
  root: { type: 'string', description: 'ref root: refs/<root>/<section> (default docdb)' },
  section: { type: 'string', description: 'section name (default documents)' },
  'git-dir': { type: 'string', description: 'git: the repository; subprocess: the cache repository' },
  remote: { type: 'string', description: 'subprocess: the git remote (URL or path); git-http: its https URL' },
  'token-env': {
    type: 'string',
    description: 'variable holding the token (default GITHUB_TOKEN, GH_TOKEN, gh; git remotes: see docs/cli.md)',
  },
};

/** Which flags make sense for which store. */
const ONLY_FOR: Record<string, RefStoreKind[]> = {
  repo: ['api'],
  'api-url': ['api'],
  remote: ['subprocess', 'git-http'],
  'git-dir': ['git', 'subprocess'],
};

export interface OpenedStore {
  store: RefStore;
  /**
   * The same store on another ref of the same repository (`--refstore api` only): the section's quarantine
   * refs (docdb section quarantine).
   */
  storeOn?(ref: string): RemoteApiRefStore;
  kind: RefStoreKind;
  /** Human description: `octo/widgets refs/docdb/documents`. */
  where: string;
  /** Tokens in use, to keep out of anything printed. */
  secrets: string[];
  close(): Promise<void>;
  /** The way out for an error of this store, in the CLI's terms (which flag or variable to check), if any. */
  advise?(e: unknown): string | undefined;
}

/** `--refstore`, checked. */
export function refstoreKind(values: FlagValues): RefStoreKind {
  const kind = str(values, 'refstore') ?? 'api';
  if (!(REFSTORES as readonly string[]).includes(kind)) {
    throw new UsageError(
      `--refstore ${JSON.stringify(kind)} is not a store (allowed: ${REFSTORES.join(', ')})`,
      '--refstore',
    );
  }
  return kind as RefStoreKind;
}

/**
 * The section ref from `--ref` or `--root`/`--section`: a valid ref name outside every section's reserved
 * space (core/refname.ts RESERVED_REF_SPACES: `.shards/`, `.quarantine/`, `.previews/`), refused naming the
 * flag it came from.
 */
export function refFromFlags(values: FlagValues): string {
  const ref = str(values, 'ref');
  if (ref !== undefined && (str(values, 'root') !== undefined || str(values, 'section') !== undefined)) {
    throw new UsageError('give either --ref or --root/--section, not both', '--ref');
  }
  for (const name of ['root', 'section']) {
    const problem = reservedSpaceProblem(str(values, name) ?? '');
    if (problem) throw new UsageError(`--${name} ${problem}`, `--${name}`);
  }
  try {
    if (ref !== undefined) {
      assertNotReservedRef(ref, 'ref');
      return ref;
    }
    return sectionRef(str(values, 'root') ?? 'docdb', str(values, 'section') ?? 'documents');
  } catch (e) {
    const flag = ref !== undefined ? '--ref' : '--root/--section';
    throw new UsageError(`${flag}: ${(e as Error).message}`, flag);
  }
}

/** `--repo`/`--api-url` with their environment defaults (the GitHub API target). */
export function apiTarget(
  values: FlagValues,
  env: NodeJS.ProcessEnv,
): { repository: string; apiUrl: string /** Where apiUrl came from, for messages. */; apiUrlFrom: string } {
  const repository = str(values, 'repo') ?? env.GITHUB_REPOSITORY;
  if (!repository) {
    throw new UsageError('--repo owner/name is required (GITHUB_REPOSITORY is not set)', '--repo');
  }
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,98})\/[A-Za-z0-9._-]{1,100}$/.test(repository)) {
    throw new UsageError(`--repo ${JSON.stringify(repository)} must be "owner/name"`, '--repo');
  }
  const apiUrl = (str(values, 'api-url') ?? env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, '');
  const apiUrlFrom =
    str(values, 'api-url') !== undefined ? '--api-url' : env.GITHUB_API_URL ? '$GITHUB_API_URL' : 'the default';
  let url: URL | undefined;
  try {
    url = new URL(apiUrl);
  } catch {}
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new UsageError(
      `--api-url ${JSON.stringify(apiUrl)} is not an http(s) URL (e.g. https://api.github.com)`,
      '--api-url',
    );
  }
  return { repository, apiUrl, apiUrlFrom };
}

/** The order the API store looks for a token in (token.ts), for messages. */
const TOKEN_ORDER = '--token-env NAME, else $GITHUB_TOKEN, else $GH_TOKEN, else "gh auth token"';
/** The order for a git remote (token-remote.ts). */
const REMOTE_TOKEN_ORDER =
  'for a git remote --token-env NAME, else $DOCDB_GIT_TOKEN, else (GitHub hosts only) $GITHUB_TOKEN, $GH_TOKEN, "gh auth token"';

/**
 * A rejected or insufficient token: where this one came from and the order docdb looks in.
 *
 * @example
 * tokenAdvice(new AuthInvalid('…'), '$GH_TOKEN', 'api'); // 'Here the token came from $GH_TOKEN; docdb takes …'
 */
export function tokenAdvice(e: unknown, source: string, store: 'api' | 'remote'): string | undefined {
  if (!(e instanceof AuthInvalid || e instanceof Forbidden)) return undefined;
  const from = source === 'none' ? 'no token was found' : `the token came from ${source}`;
  return `Here ${from}; docdb takes ${store === 'api' ? TOKEN_ORDER : REMOTE_TOKEN_ORDER}.`;
}

/**
 * The way out of an API store's error: an unreachable API names the URL used and where it came from
 * (and the emulator); a rejected token names where it came from and the order docdb looks in.
 *
 * @example
 * apiAdvice(new TransportError('…'), { apiUrl: 'http://127.0.0.1:9', apiUrlFrom: '--api-url', tokenSource: 'none' });
 */
export function apiAdvice(
  e: unknown,
  target: { apiUrl: string; apiUrlFrom: string; tokenSource: string },
): string | undefined {
  if (e instanceof TransportError) {
    // (An API URL with credentials never gets this far: the store refuses it.)
    return `Is the API URL right? docdb used ${target.apiUrl} (from ${target.apiUrlFrom}; set it with --api-url or $GITHUB_API_URL). For a local emulator, start "docdb emulator" and pass the URL it prints to --api-url.`;
  }
  return tokenAdvice(e, target.tokenSource, 'api');
}

/**
 * `--refstore git-http --remote URL`: the token by the remote's host (token-remote.ts): GitHub's
 * sources only for a GitHub host.
 */
async function openGitHttp(
  values: FlagValues,
  io: CliIo,
  ref: string,
  tokenEnv: string | undefined,
  gh: GhRunner | undefined,
): Promise<OpenedStore> {
  const remote = str(values, 'remote');
  if (!remote) throw new UsageError('--remote is required with --refstore git-http (an https URL)', '--remote');
  const { token, source } = await resolveRemoteToken({ tokenEnv, env: io.env, remote, ...(gh ? { gh } : {}) });
  const store = new GitHttpRefStore({ remote, ref, userAgent: 'git/docdb-cli', ...(token ? { token } : {}) });
  return {
    store,
    kind: 'git-http',
    where: `${store.remote} ${ref}`,
    secrets: token ? [token] : [],
    close: async () => {},
    advise: (e) => tokenAdvice(e, source, 'remote'),
  };
}

/**
 * The store flags' problems that need no I/O (the store kind, flags of another store, the section ref,
 * and with `--refstore api` the repository and API URL), as a UsageError; else the kind and the ref.
 * Commands run it with their own checks (args.ts checkUsage) so every problem is reported at once.
 *
 * @example
 * const { kind, ref } = checkStoreFlags({ repo: 'octo/hello' }, process.env);
 */
export function checkStoreFlags(
  values: FlagValues,
  env: NodeJS.ProcessEnv,
  /** `target: false`: the caller checks --repo/--api-url itself (`docdb project`, whose sources use them). */
  options: { target?: boolean } = {},
): { kind: RefStoreKind; ref: string } {
  const kind = refstoreKind(values);
  for (const [flag, kinds] of Object.entries(ONLY_FOR)) {
    if (str(values, flag) !== undefined && !kinds.includes(kind)) {
      throw new UsageError(`--${flag} applies to --refstore ${kinds.join(' or ')}, not ${kind}`, `--${flag}`);
    }
  }
  const ref = refFromFlags(values);
  if (kind === 'api' && options.target !== false) apiTarget(values, env);
  return { kind, ref };
}

/**
 * Build the store the flags describe.
 *
 * @example
 * const { store, close } = await openStore({ refstore: 'git', 'git-dir': './data.git' }, io);
 */
export async function openStore(values: FlagValues, io: CliIo, options: { gh?: GhRunner } = {}): Promise<OpenedStore> {
  const { kind, ref } = checkStoreFlags(values, io.env);
  const tokenEnv = str(values, 'token-env');
  try {
    if (kind === 'git') {
      const dir = str(values, 'git-dir');
      if (!dir)
        throw new UsageError('--git-dir is required with --refstore git (a bare repository or a clone)', '--git-dir');
      if (tokenEnv !== undefined) throw new UsageError('--token-env does not apply to --refstore git', '--token-env');
      const store = new GitRefStore({ dir, ref, env: io.env });
      return { store, kind, where: `${dir} ${ref}`, secrets: [], close: () => store.close() };
    }
    if (kind === 'subprocess') {
      const remote = str(values, 'remote');
      if (!remote)
        throw new UsageError('--remote is required with --refstore subprocess (a git URL or path)', '--remote');
      const http = /^https?:\/\//i.test(remote);
      if (tokenEnv !== undefined && !http) {
        throw new UsageError(
          '--token-env applies to http(s) remotes only (ssh and file remotes use their own keys)',
          '--token-env',
        );
      }
      const { token, source } = http
        ? await resolveRemoteToken({ tokenEnv, env: io.env, remote, ...(options.gh ? { gh: options.gh } : {}) })
        : { token: undefined, source: 'none' };
      const dir = str(values, 'git-dir');
      const store = new SubprocessGitRefStore({
        remote,
        ref,
        env: io.env,
        ...(dir ? { dir } : {}),
        ...(token ? { token } : {}),
      });
      return {
        store,
        kind,
        where: `${remote} ${ref}`,
        secrets: token ? [token] : [],
        close: () => store.close(),
        advise: (e) => (http ? tokenAdvice(e, source, 'remote') : undefined),
      };
    }
    if (kind === 'git-http') return await openGitHttp(values, io, ref, tokenEnv, options.gh);
    const { repository, apiUrl, apiUrlFrom } = apiTarget(values, io.env);
    const { token, source: tokenSource } = await resolveToken({
      tokenEnv,
      env: io.env,
      ghHost: ghHostFor(apiUrl),
      ...(options.gh ? { gh: options.gh } : {}),
    });
    const [owner, repo] = repository.split('/') as [string, string];
    const on = (r: string) =>
      new RemoteApiRefStore({
        transport: fetchTransport(),
        apiUrl,
        owner,
        repo,
        userAgent: 'docdb-cli',
        // Bulk reads (doc export) through the section's archive; the token never goes to its redirect.
        archive: nodeArchiveReader(),
        // A warning (an archive too large for the archive path, read in batches instead) reaches the user.
        logger: (event) => {
          if (event.level === 'warn') io.stderr(`warning: ${event.message}\n`);
        },
        ...(token ? { token } : {}),
        ref: r,
      });
    const store = on(ref);
    return {
      store,
      kind,
      storeOn: on,
      where: `${repository} ${ref}`,
      secrets: token ? [token] : [],
      close: async () => {},
      advise: (e) => apiAdvice(e, { apiUrl, apiUrlFrom, tokenSource }),
    };
  } catch (e) {
    // Store options that come from flags are usage errors naming the flag.
    if (e instanceof InvalidConfig) {
      const field = String(e.data.field ?? '');
      const flag = {
        dir: '--git-dir',
        remote: '--remote',
        apiUrl: '--api-url',
        owner: '--repo',
        repo: '--repo',
        ref: '--ref',
      }[field];
      if (flag) throw new UsageError(`${flag}: ${e.message}`, flag);
    }
    throw e;
  }
}
