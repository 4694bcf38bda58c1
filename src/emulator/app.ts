/**
 * The emulator as a platform-neutral app: state, faults, request log and a web-standard
 * `fetch(Request) → Promise<Response>` (Hono's shape). `startEmulator` (./index.ts) serves it over
 * node:http on loopback; a page or worker can call it directly, fully offline:
 *
 * @example
 * const app = createEmulatorApp();
 * app.state.createRepo('octo/hello', { description: 'Hi' });
 * const res = await app.fetch(new Request('http://emulator.local/repos/octo/hello'));
 * // or hand `app.fetchFunction` to anything that takes a fetch (fetchTransport({ fetch }))
 */
import { FaultBook } from './faults.js';
import { handleRequest } from './handler.js';
import type { RequestEnv } from './incoming.js';
import { resolveSecondaryLimits, type SecondaryLimitFigures, SecondaryLimits } from './rations.js';
import { EmulatorState } from './state.js';
import type { Fault, RequestLogEntry, ResponseRecord } from './traffic.js';

/** Options of the platform-neutral emulator core (startEmulator adds host, port and seed). */
export interface EmulatorAppOptions {
  /** `GET /git/trees/{sha}?recursive=1` truncation limit in entries; default 100,000 like GitHub. */
  treeTruncateLimit?: number;
  /** The same listing's limit in bytes of the answer; default 7 MB like GitHub. */
  treeTruncateBytes?: number;
  /** Largest file `GET /contents/{path}` serves (403 `too_large` above it); default 100 MB like GitHub. */
  contentsMaxBytes?: number;
  /** Bytes of GraphQL `Blob.text` before it is cut with `isTruncated: true`; default 512,000 like GitHub. */
  graphqlBlobTextBytes?: number;
  /**
   * Whether GraphQL serves the `updateRefs` mutation (default true, as github.com). False emulates a host
   * whose schema predates it (GitHub Enterprise Server before 3.13), where compaction must refuse.
   */
  graphqlUpdateRefs?: boolean;
  /**
   * Base URL of the archive download site (codeload.github.com's part) that `GET /tarball` redirects to;
   * requests the app gets for this origin are answered as that site. `startEmulator` serves it on a second
   * port; default `http://codeload.emulator.invalid` (in-page apps).
   */
  codeloadUrl?: string;
  /** Largest request body accepted, in bytes; default 50 MB. Larger bodies get 413. */
  maxBodyBytes?: number;
  /** Added latency per request: a fixed number of milliseconds or a uniform random range. */
  latencyMs?: number | { min: number; max: number };
  /** Budget per hour shared by every unauthenticated client of this emulator; default 60. */
  unauthenticatedRateLimit?: number;
  /** Budget per hour of a token that does not set its own; default 5,000. */
  defaultRateLimit?: number;
  /**
   * Called with every answer the emulator writes (faults included), e.g. to validate each JSON body
   * against GitHub's OpenAPI description in tests. It runs before the answer is sent; an exception it
   * throws is reported on stderr and never changes the answer.
   */
  onResponse?: (response: ResponseRecord) => void;
  /** WebCrypto used for ETags (default `globalThis.crypto.subtle`, read per request). */
  subtle?: SubtleCrypto;
  /**
   * GitHub's secondary rate limits per token (./rations.ts, docs/emulator.md § Secondary rate limits):
   * `true` for GitHub's figures (80 content-creating requests a minute, 500 an hour, 100 concurrent,
   * 900 REST / 2,000 GraphQL points a minute), an object to change some of them, `false` for none.
   * Default false (tests count requests without them); `docdb emulator --secondary-limits on` switches them on.
   */
  secondaryLimits?: boolean | Partial<SecondaryLimitFigures>;
  /**
   * The emulator's clock in epoch ms (default `Date.now`): budget windows, secondary-limit windows,
   * dates of API commits. Tests inject one so that no test waits for a window to pass.
   */
  now?: () => number;
}

export interface EmulatorApp {
  state: EmulatorState;
  /** Answer one request (rejects with a TypeError when a fault drops the connection, as fetch does). */
  fetch(request: Request, env?: RequestEnv): Promise<Response>;
  /** The app as a `fetch` function: `(input, init) => app.fetch(new Request(input, init))`. */
  readonly fetchFunction: typeof globalThis.fetch;
  /** Request log, oldest first. */
  readonly requests: ReadonlyArray<RequestLogEntry>;
  clearLog(): void;
  inject(fault: Fault): void;
  clearFaults(): void;
  /** Stop: requests left hanging by a `hang` fault are dropped. */
  close(): void;
  /** Where `GET /tarball` redirects to (settable once the codeload site is listening). */
  codeloadUrl: string;
  /** The secondary limits enforced, or undefined when they are off. */
  readonly secondaryLimits: Readonly<SecondaryLimitFigures> | undefined;
}

const DEFAULTS = {
  treeTruncateLimit: 100_000,
  /** GitHub: "The limit for the tree array is 100,000 entries with a maximum size of 7 MB". */
  treeTruncateBytes: 7 * 1000 * 1000,
  /** GitHub: the contents endpoint returns files "up to 100 MB" (with the raw or object media type). */
  contentsMaxBytes: 100 * 1024 * 1024,
  /** Not documented by GitHub; measured at 512,000 bytes (https://github.com/sveltia/sveltia-cms/issues/950). */
  graphqlBlobTextBytes: 512_000,
  maxBodyBytes: 50 * 1024 * 1024,
  unauthenticatedRateLimit: 60,
  defaultRateLimit: 5000,
};

/**
 * A positive (or, with allowZero, non-negative) integer option, or its default; throws naming the option.
 *
 * @example
 * positiveOption('port', undefined, 0, true); // 0
 * positiveOption('treeTruncateLimit', 0, 100_000); // throws: treeTruncateLimit must be a positive integer
 */
export function positiveOption(name: string, v: number | undefined, fallback: number, allowZero = false): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < (allowZero ? 0 : 1)) {
    throw new Error(`startEmulator: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${v}`);
  }
  return v;
}

function clock(now: EmulatorAppOptions['now']): () => number {
  if (now === undefined) return () => Date.now();
  if (typeof now !== 'function') throw new Error(`startEmulator: now must be a function returning epoch ms`);
  return now;
}

function latency(v: EmulatorAppOptions['latencyMs']): EmulatorAppOptions['latencyMs'] {
  if (v === undefined) return undefined;
  const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  if (typeof v === 'number' ? ok(v) : v !== null && typeof v === 'object' && ok(v.min) && ok(v.max) && v.min <= v.max) {
    return v;
  }
  throw new Error(
    `startEmulator: latencyMs must be a non-negative number of milliseconds or {min, max} with 0 <= min <= max, got ${JSON.stringify(v)}`,
  );
}

/**
 * Create an emulator app (no network: answer requests with `app.fetch`).
 *
 * @example
 * const app = createEmulatorApp({ treeTruncateLimit: 1000 });
 * app.state.createRepo('octo/hello');
 * const res = await app.fetch(new Request('http://emulator.local/repos/octo/hello'));
 */
export function createEmulatorApp(options: EmulatorAppOptions = {}): EmulatorApp {
  const resolved = {
    treeTruncateLimit: positiveOption('treeTruncateLimit', options.treeTruncateLimit, DEFAULTS.treeTruncateLimit),
    treeTruncateBytes: positiveOption('treeTruncateBytes', options.treeTruncateBytes, DEFAULTS.treeTruncateBytes),
    contentsMaxBytes: positiveOption('contentsMaxBytes', options.contentsMaxBytes, DEFAULTS.contentsMaxBytes),
    graphqlBlobTextBytes: positiveOption(
      'graphqlBlobTextBytes',
      options.graphqlBlobTextBytes,
      DEFAULTS.graphqlBlobTextBytes,
    ),
    graphqlUpdateRefs: options.graphqlUpdateRefs !== false,
    codeload: { url: options.codeloadUrl ?? 'http://codeload.emulator.invalid', tickets: new Map() },
    maxBodyBytes: positiveOption('maxBodyBytes', options.maxBodyBytes, DEFAULTS.maxBodyBytes),
    latencyMs: latency(options.latencyMs),
    onResponse: options.onResponse,
    subtle: options.subtle,
  };
  const state = new EmulatorState(
    {
      unauthenticated: positiveOption(
        'unauthenticatedRateLimit',
        options.unauthenticatedRateLimit,
        DEFAULTS.unauthenticatedRateLimit,
        true,
      ),
      defaultToken: positiveOption('defaultRateLimit', options.defaultRateLimit, DEFAULTS.defaultRateLimit, true),
    },
    clock(options.now),
  );
  const figures = resolveSecondaryLimits(options.secondaryLimits);
  const secondary = figures ? new SecondaryLimits(figures, () => state.now()) : undefined;
  const log: RequestLogEntry[] = [];
  const faults = new FaultBook();
  let close!: () => void;
  const closed = new Promise<void>((resolve) => {
    close = resolve;
  });
  const deps = { state, options: resolved, faults, log, closed, ...(secondary ? { secondary } : {}) };
  const fetch = (request: Request, env?: RequestEnv) => handleRequest(deps, request, env);
  return {
    state,
    fetch,
    fetchFunction: ((input: RequestInfo | URL, init?: RequestInit) =>
      fetch(new Request(input, init))) as typeof globalThis.fetch,
    get requests() {
      return log;
    },
    clearLog: () => {
      log.length = 0;
    },
    inject: (fault) => faults.inject(fault),
    clearFaults: () => faults.clear(),
    close,
    get codeloadUrl() {
      return resolved.codeload.url;
    },
    set codeloadUrl(url: string) {
      resolved.codeload.url = url.replace(/\/+$/, '');
    },
    secondaryLimits: figures,
  };
}
