/**
 * A stateful local GitHub REST API for tests, the demo and offline runs.
 *
 * @example
 * import { startEmulator, DEMO_SEED } from 'docdb/emulator';
 * const em = await startEmulator({ seed: DEMO_SEED });
 * const res = await fetch(`${em.url}/repos/octo-org/widgets/git/ref/heads/main`);
 * await em.stop();
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportBare } from './export.js';
import { FaultBook } from './faults.js';
import { applySeed, loadSeedFile } from './seed.js';
import { createHandler } from './server.js';
import { EmulatorState } from './state.js';
import type { EmulatorHandle, EmulatorOptions, RequestLogEntry } from './types.js';

export { DELETE_MISSING_PATH_MESSAGE } from './routes/git.js';
export { DEMO_SEED, type EmulatorSeed, loadSeedFile, parseSeed } from './seed.js';
export type { Account, IssueRecord, PullRecord, ReleaseRecord, RepoRecord } from './state.js';
export { EmulatorState } from './state.js';
export type {
  EmulatorHandle,
  EmulatorOptions,
  Fault,
  RepoAccess,
  RequestLogEntry,
  ResponseRecord,
  TokenOptions,
} from './types.js';

const DEFAULTS = {
  host: '127.0.0.1',
  treeTruncateLimit: 100_000,
  maxBodyBytes: 50 * 1024 * 1024,
  unauthenticatedRateLimit: 60,
  defaultRateLimit: 5000,
};

function positive(name: string, v: number | undefined, fallback: number, allowZero = false): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < (allowZero ? 0 : 1)) {
    throw new Error(`startEmulator: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${v}`);
  }
  return v;
}

function latency(v: EmulatorOptions['latencyMs']): EmulatorOptions['latencyMs'] {
  if (v === undefined) return undefined;
  const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  if (typeof v === 'number' ? ok(v) : v !== null && typeof v === 'object' && ok(v.min) && ok(v.max) && v.min <= v.max) {
    return v;
  }
  throw new Error(
    `startEmulator: latencyMs must be a non-negative number of milliseconds or {min, max} with 0 <= min <= max, got ${JSON.stringify(v)}`,
  );
}

/** Start an emulator on loopback; resolves once it is listening. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const opts = {
    host: options.host ?? DEFAULTS.host,
    port: positive('port', options.port, 0, true),
    treeTruncateLimit: positive('treeTruncateLimit', options.treeTruncateLimit, DEFAULTS.treeTruncateLimit),
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, DEFAULTS.maxBodyBytes),
    latencyMs: latency(options.latencyMs),
    onResponse: options.onResponse,
  };
  const state = new EmulatorState({
    unauthenticated: positive(
      'unauthenticatedRateLimit',
      options.unauthenticatedRateLimit,
      DEFAULTS.unauthenticatedRateLimit,
      true,
    ),
    defaultToken: positive('defaultRateLimit', options.defaultRateLimit, DEFAULTS.defaultRateLimit, true),
  });
  if (options.seed !== undefined) {
    const seed = typeof options.seed === 'string' ? await loadSeedFile(options.seed) : options.seed;
    applySeed(state, seed, typeof options.seed === 'string' ? options.seed : 'seed');
  }
  const log: RequestLogEntry[] = [];
  const faults = new FaultBook();
  const hanging = new Set<ServerResponse>();
  let port = 0;
  const server = createServer(createHandler({ state, options: opts, faults, log, hanging, port: () => port }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const hostForUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    state,
    get requests() {
      return log;
    },
    clearLog: () => {
      log.length = 0;
    },
    inject: (fault) => faults.inject(fault),
    clearFaults: () => faults.clear(),
    exportBareRepo: (fullName, dir) => exportBare(state.repo(fullName), dir),
    stop: () => {
      stopped ??= new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
