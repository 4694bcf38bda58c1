/** Shared fixtures for remote-api tests: an emulator, a repository, a token, and stores over each transport. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import type { RemoteApiRefStoreOptions } from '../../src/stores/remote-api/config.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { createOctokit } from '../../src/transport/create-octokit.js';
import {
  type FetchTransportOptions,
  fetchTransport,
  hostTransport,
  octokitTransport,
  recordingTransport,
} from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';

export const TOKEN = 'ghp_TestTokenValue0123456789abcdefABCDEF';
export const OWNER = 'octo';

export type TransportKind = 'fetch' | 'octokit' | 'host' | 'recording';

export function makeTransport(
  kind: TransportKind,
  em: EmulatorHandle,
  token: string | undefined = TOKEN,
): HttpTransport {
  if (kind === 'fetch') return untimedFetch();
  // The unit-test fake, recording while it passes every request through to a real transport.
  if (kind === 'recording') return recordingTransport({ inner: untimedFetch() });
  if (kind === 'octokit') {
    // Octokit's own auth hook sets Authorization on every request, so it must carry the store's token.
    return octokitTransport(
      createOctokit({
        ...(token !== undefined ? { auth: token } : {}),
        baseUrl: em.url,
        writeSpacingMs: 0,
        retryAfterBaseMs: 1,
        warn: () => {},
      }),
    );
  }
  // The browser host function, played by a fetch-based delegate.
  return hostTransport(async (req) => {
    const init: RequestInit = { method: req.method, headers: req.headers, cache: 'no-store' };
    if (req.body) init.body = req.body as unknown as BodyInit;
    const res = await fetch(req.url, init);
    return { status: res.status, headers: [...res.headers], body: new Uint8Array(await res.arrayBuffer()) };
  });
}

/**
 * A fetch transport without a per-request timer. A timer would turn a slow answer into a retry — one more
 * request than the test counts — and answers are slow on a loaded machine: the emulator runs in the test's
 * own process, and its first GraphQL answer builds GitHub's whole schema (seconds of CPU, more under load).
 * A request that never ends fails its test at vitest's test timeout instead; the tests of the timeout
 * itself (faults.test.ts, transport-contract.test.ts) set their own `timeoutMs` and inject a hang.
 *
 * @example
 * const s = store(fx.em, fx.repo, { transport: untimedFetch() });
 */
export function untimedFetch(options: Omit<FetchTransportOptions, 'timeoutMs'> = {}): HttpTransport {
  return fetchTransport({ ...options, timeoutMs: 0 });
}

let repoCounter = 0;

/** A fresh repository (with an initial commit) and a write token for it. */
export function freshRepo(em: EmulatorHandle, opts: { empty?: boolean; private?: boolean } = {}): string {
  const name = `data-${++repoCounter}-${Math.random().toString(36).slice(2, 8)}`;
  em.state.createRepo(`${OWNER}/${name}`, opts);
  return name;
}

export function addToken(em: EmulatorHandle): void {
  if (!em.state.findToken(TOKEN)) em.state.addToken(TOKEN, { login: OWNER, repos: '*', rateLimit: 1_000_000 });
}

export async function emulator(options: Parameters<typeof startEmulator>[0] = {}): Promise<EmulatorHandle> {
  const em = await startEmulator(options);
  addToken(em);
  return em;
}

export const noSleep = async (_ms: number) => {};

export function store(
  em: EmulatorHandle,
  repo: string,
  extra: Partial<RemoteApiRefStoreOptions> = {},
  kind: TransportKind = 'fetch',
): RemoteApiRefStore {
  const token = 'token' in extra ? extra.token : TOKEN;
  return new RemoteApiRefStore({
    transport: makeTransport(kind, em, token),
    apiUrl: em.url,
    owner: OWNER,
    repo,
    token: TOKEN,
    sleep: noSleep,
    ...extra,
  });
}

/** Requests logged by the emulator since `from` (an index into em.requests). */
export function since(em: EmulatorHandle, from: number) {
  return em.requests.slice(from);
}

/** `METHOD operation` summaries, for readable assertions. */
export function ops(em: EmulatorHandle, from: number): string[] {
  return since(em, from).map((r) => `${r.method} ${r.operation ?? r.path} ${r.status}`);
}

/**
 * One emulator for the test file and a fresh repository for each test (registers the vitest hooks).
 *
 * @example
 * const fx = emulatorPerFile();
 * it('…', async () => { await store(fx.em, fx.repo).put('a', '1'); });
 */
export function emulatorPerFile(options: Parameters<typeof startEmulator>[0] = {}): {
  readonly em: EmulatorHandle;
  readonly repo: string;
} {
  const fx = {} as { em: EmulatorHandle; repo: string };
  beforeAll(async () => {
    fx.em = await emulator(options);
  });
  afterAll(async () => {
    await fx.em?.stop();
  });
  beforeEach(() => {
    fx.repo = freshRepo(fx.em);
  });
  return fx;
}

/** Bytes and requests a store's transport moved (counted at the fetch under the transport). */
export interface Meter {
  requests: number;
  received: number;
  /** Bytes of the request bodies sent (what a write uploads). */
  sent: number;
  /** Requests per origin, with whether each carried an Authorization header. */
  log: { origin: string; path: string; status: number; authorization: boolean; bytes: number }[];
}

/**
 * A fetch transport that counts requests and response bytes, and records each request's origin and whether it
 * carried `Authorization` (the token must never reach another origin).
 *
 * @example
 * const meter = newMeter();
 * const s = store(fx.em, fx.repo, { transport: meteredTransport(meter) });
 */
export function meteredTransport(meter: Meter): HttpTransport {
  const fetchFn: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const body = init?.body;
    meter.sent += typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : 0;
    let res: Response;
    try {
      res = await fetch(input, init);
    } catch (e) {
      // A request that failed in transit (a reset keep-alive connection) was still sent: count it.
      meter.requests++;
      meter.log.push({
        bytes: 0,
        origin: url.origin,
        path: url.pathname,
        status: 0,
        authorization: headers.has('authorization'),
      });
      throw e;
    }
    const buf = new Uint8Array(await res.arrayBuffer());
    meter.requests++;
    meter.received += buf.byteLength;
    meter.log.push({
      bytes: buf.byteLength,
      origin: url.origin,
      path: url.pathname,
      status: res.status,
      authorization: headers.has('authorization'),
    });
    const nullBody = res.status === 204 || res.status === 304;
    return new Response(nullBody ? null : buf, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
  return untimedFetch({ fetch: fetchFn });
}

export function newMeter(): Meter {
  return { requests: 0, received: 0, sent: 0, log: [] };
}
