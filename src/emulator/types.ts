/** Public types of the GitHub API emulator (the contract in EMULATOR_API.md). */
import type { ObjectDb } from '../core/git/object-db.js';
import type { EmulatorAppOptions } from './app.js';
import type { EmulatorSeed } from './seed.js';

export type { EmulatorSeed } from './seed.js';

/** Options of `startEmulator`: the app's options (see EmulatorAppOptions) plus where to listen and a seed. */
export interface EmulatorOptions extends EmulatorAppOptions {
  /** TCP port; default 0 (a random free port). */
  port?: number;
  /** Interface to bind; default `127.0.0.1` (loopback only). */
  host?: string;
  /** A seed object, or a path to a `.json` / `.yaml` / `.yml` seed file. Default: no repositories. */
  seed?: EmulatorSeed | string;
}

/** One answer as `onResponse` sees it. */
export interface ResponseRecord {
  method: string;
  /** Path without the query string. */
  path: string;
  status: number;
  /** OpenAPI operationId when the route is known. */
  operation?: string;
  /** Name of the injected fault that produced (or, for `drop-reply`, dropped) the answer. */
  fault?: Fault['kind'];
  /** True when the body was written by a test, not by the emulator (`status` faults with `body`, `malformed-json`). */
  injectedBody: boolean;
  headers: Record<string, string>;
  /** The body as sent (undefined for 204, 304, HEAD and bodiless faults). */
  body?: string;
}

export interface RequestLogEntry {
  method: string;
  /** Path without the query string, e.g. `/repos/o/r/git/ref/heads/main`. */
  path: string;
  /** Query string without the leading `?` ('' when none). */
  query: string;
  status: number;
  /** False for 304s of authorized requests, `GET /rate_limit`, preflights, rejected credentials, faults. */
  costsBudget: boolean;
  /** Whether a valid token was sent (the token itself is never recorded). */
  authenticated: boolean;
  /** OpenAPI operationId when the route is known, e.g. `git/get-ref`. */
  operation?: string;
  /** Name of the injected fault that answered the request, if any. */
  fault?: Fault['kind'];
}

export type Fault = {
  method?: string;
  /** String prefix of, or RegExp tested against, the path without the query. */
  path?: string | RegExp;
  /** How many matching requests to affect (default 1). */
  times?: number;
  /** Let this many matching requests through first (default 0). */
  skip?: number;
} & (
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'secondary-rate-limit'; status?: 403 | 429; retryAfter: number }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'malformed-json' }
  | { kind: 'drop-reply' }
);

export type RepoAccess = 'read' | 'write';

export interface TokenOptions {
  login: string;
  /** Repositories (full names) the token may use, or '*' for all. Default: repos owned by `login`, write. */
  repos?: Record<string, RepoAccess> | '*';
  /** Requests per hour; default the emulator's `defaultRateLimit`. */
  rateLimit?: number;
  /** GraphQL points per hour; default the emulator's `defaultRateLimit`. */
  graphqlRateLimit?: number;
  /**
   * An installation token (`GITHUB_TOKEN`, GitHub App; default: the token starts with `ghs_`). Commits it
   * creates through the API without author, committer or signature come back `verification.verified: true`,
   * as GitHub signs them.
   */
  bot?: boolean;
}

export interface EmulatorHandle {
  /** API base URL like `http://127.0.0.1:PORT` (plays the role of https://api.github.com). */
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Request log, oldest first. */
  readonly requests: ReadonlyArray<RequestLogEntry>;
  clearLog(): void;
  inject(fault: Fault): void;
  clearFaults(): void;
  state: import('./state.js').EmulatorState;
  exportBareRepo(fullName: string, dir: string): Promise<void>;
}

export type { ObjectDb };
