/**
 * A stateful local GitHub REST API for tests, the demo and offline runs.
 *
 * @example
 * import { startEmulator, DEMO_SEED } from 'docdb/emulator';
 * const em = await startEmulator({ seed: DEMO_SEED });
 * const res = await fetch(`${em.url}/repos/octo-org/widgets/git/ref/heads/main`);
 * await em.stop();
 */
import { createHash } from 'node:crypto';
import { createEmulatorApp, positiveOption } from './app.js';
import { exportBare } from './export.js';
import { listen } from './node-server.js';
import { openDataDir } from './persist/data-dir.js';
import { durable } from './persist/durable.js';
import { journalFsFromEnv } from './persist/kill-switch.js';
import { applySeed, type EmulatorSeed, loadSeedFile } from './seed.js';
import type { EmulatorHandle, EmulatorOptions } from './types.js';

export { createEmulatorApp, type EmulatorApp, type EmulatorAppOptions } from './app.js';
export { DEMO_SEED } from './demo-seed.js';
export { type PullRequestAction, type PullRequestEventPayload, pullRequestEvent } from './events.js';
export type { RequestEnv } from './incoming.js';
export type {
  Account,
  CheckRunRecord,
  CommitStatusRecord,
  IssueCommentRecord,
  IssueRecord,
  PermissionScope,
  PullRecord,
  ReleaseRecord,
  RepoRecord,
  TokenPermissions,
} from './model.js';
export type { DataDirReplay } from './persist/data-dir.js';
export { GITHUB_SECONDARY_LIMITS } from './rations.js';
export { DELETE_MISSING_PATH_MESSAGE } from './routes/git-trees.js';
export { type EmulatorSeed, loadSeedFile, parseSeed } from './seed.js';
export { EmulatorState } from './state.js';
export type {
  EmulatorHandle,
  EmulatorOptions,
  Fault,
  RepoAccess,
  RequestLogEntry,
  ResponseRecord,
  SecondaryLimitFigures,
  SecondaryLimitKind,
  TokenOptions,
} from './types.js';

/**
 * Start an emulator on loopback; resolves once it is listening.
 *
 * @example
 * const em = await startEmulator({ seed: DEMO_SEED, port: 0 });
 * console.log(em.url); // http://127.0.0.1:<port>
 * await em.stop();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const host = options.host ?? '127.0.0.1';
  const requestedPort = positiveOption('port', options.port, 0, true);
  const app = createEmulatorApp(options);
  let seed: EmulatorSeed | undefined;
  if (options.seed !== undefined) {
    seed = typeof options.seed === 'string' ? await loadSeedFile(options.seed) : options.seed;
    applySeed(app.state, seed, typeof options.seed === 'string' ? options.seed : 'seed');
  }
  const data =
    options.dataDir === undefined
      ? undefined
      : openDataDir(app.state, options.dataDir, seedKey(seed), {
          repair: options.dataDirRepair,
          fs: journalFsFromEnv(process.env),
        });
  const served = data ? durable(app, data) : app;
  const { server, port } = await listen(served, host, requestedPort);
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  // The archive site is another origin, as codeload.github.com is: a second port on the same host.
  const codeload = await listen(app, host, 0);
  app.codeloadUrl = `http://${hostForUrl}:${codeload.port}`;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    codeloadUrl: app.codeloadUrl,
    state: app.state,
    secondaryLimits: app.secondaryLimits,
    ...(data ? { dataDir: { replayed: data.replayed, stopped: () => data.stopped } } : {}),
    get requests() {
      return app.requests;
    },
    clearLog: () => app.clearLog(),
    inject: (fault) => app.inject(fault),
    clearFaults: () => app.clearFaults(),
    exportBareRepo: (fullName, dir) => exportBare(app.state.repo(fullName), dir),
    stop: () => {
      stopped ??= new Promise<void>((resolve) => {
        app.close();
        let open = 2;
        const closed = () => {
          if (--open === 0) {
            data?.close();
            resolve();
          }
        };
        server.close(closed);
        codeload.server.close(closed);
        server.closeAllConnections();
        codeload.server.closeAllConnections();
      });
      return stopped;
    },
  };
}

/** Which seed a data directory grew from: its replay needs that seed's commits. */
function seedKey(seed: EmulatorSeed | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify(seed ?? null))
    .digest('hex');
}
