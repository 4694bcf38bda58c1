/**
 * Fixtures for GitHttpRefStore tests: a bare repository served by git's own `git http-backend` on
 * loopback (token-protected, pushes on), stores on it with their own caches, and `git fsck --strict`
 * of the served repository on cleanup.
 */
import { GitHttpRefStore, type GitHttpRefStoreOptions } from '../../src/stores/git-http/index.js';
import { bareRepo, steppingClock, tempDir } from '../git/helpers.js';
import { type GitHttpServer, type GitHttpServerOptions, startGitHttpServer } from '../git/http-git-server.js';

export const TOKEN = 'test-token-5f1c0e2a9b';

export interface GitHttpFixture {
  server: GitHttpServer;
  /** The served bare repository on disk. */
  repoDir: string;
  /** Its smart-HTTP URL. */
  remote: string;
  dir: string;
  store(options?: Partial<GitHttpRefStoreOptions>): GitHttpRefStore;
  cleanup(): Promise<void>;
}

/**
 * A served repository `data.git` and a store factory (token and a stepping clock filled in).
 *
 * @example
 * const fx = await gitHttpFixture(); const store = fx.store(); … await fx.cleanup();
 */
export async function gitHttpFixture(
  options: GitHttpServerOptions & { token?: string | null } = {},
): Promise<GitHttpFixture> {
  const tmp = tempDir('docdb-git-http-');
  const repoDir = bareRepo(tmp.dir, 'data.git');
  const token = options.token === null ? undefined : (options.token ?? TOKEN);
  const server = await startGitHttpServer(tmp.dir, token, options);
  const remote = `${server.url}/data.git`;
  const now = steppingClock();
  return {
    server,
    repoDir,
    remote,
    dir: tmp.dir,
    store: (o = {}) =>
      new GitHttpRefStore({ remote, now, retryConcurrentWrites: 50, ...(token ? { token } : {}), ...o }),
    cleanup: async () => {
      await server.stop();
      tmp.cleanup(); // git fsck --strict on every repository, then removes the directory
    },
  };
}

/** Requests of a server log since index `from`, as `METHOD path[ command]` strings. */
export function requestsSince(server: GitHttpServer, from: number): string[] {
  return server.requests.slice(from).map((r) => {
    const path = new URL(r.url, 'http://x').pathname.replace(/^\/[^/]+/, '');
    const service = new URL(r.url, 'http://x').searchParams.get('service');
    return `${r.method} ${path}${service ? `?service=${service}` : ''}${r.command ? ` ${r.command}` : ''}`;
  });
}
