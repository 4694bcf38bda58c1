/**
 * RemoteApiRefStore with an `apiUrl` that points at a hostile server (issue 27 items 3 and 8): the ref is
 * read from the emulator through a proxy, and the read of the document (contents, then blob) meets an
 * endless 500, an answer over the cap, or a long JSON error body cut at 8 KiB. Over fetchTransport and
 * over octokitTransport(createOctokit) — the Action's default.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidConfig, RateLimited, TransportError, UpstreamUnavailable } from '../../src/core/errors.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { createOctokit } from '../../src/transport/create-octokit.js';
import { fetchTransport, type HttpTransport, octokitTransport } from '../../src/transport/index.js';
import { type Hostile, type HostileServer, hostileServer } from '../transport/hostile-server.js';
import { emulator, freshRepo, OWNER, TOKEN } from './helpers.js';

let em: EmulatorHandle;
let repo: string;
const servers: HostileServer[] = [];

beforeAll(async () => {
  em = await emulator();
  repo = freshRepo(em);
  const seed = new RemoteApiRefStore({ transport: fetchTransport(), apiUrl: em.url, owner: OWNER, repo, token: TOKEN });
  await seed.put('docs/a.json', '{"a":1}');
});
afterAll(async () => {
  await em?.stop();
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** The document reads (contents, blobs) get `answer`; everything else reaches the emulator. */
async function hostileApi(answer: Hostile): Promise<HostileServer> {
  const s = await hostileServer(answer, { upstream: em.url, match: /\/contents\/|\/git\/blobs\// });
  servers.push(s);
  return s;
}

const transports: [string, (url: string) => HttpTransport][] = [
  ['fetchTransport', () => fetchTransport()],
  [
    'octokitTransport(createOctokit)',
    (url) =>
      octokitTransport(
        createOctokit({ auth: TOKEN, baseUrl: url, writeSpacingMs: 0, retryAfterBaseMs: 1, warn: () => {} }),
      ),
  ],
];

function storeAt(s: HostileServer, transport: HttpTransport, extra: Record<string, unknown> = {}) {
  return new RemoteApiRefStore({
    transport,
    apiUrl: s.url,
    owner: OWNER,
    repo,
    token: TOKEN,
    readRetries: 3,
    sleep: async () => {},
    ...extra,
  });
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe.each(transports)('%s', (_name, make) => {
  it('an endless 500 on the document read: UpstreamUnavailable after the retries, each body cut at 8 KiB', async () => {
    const s = await hostileApi({ kind: 'endless', status: 500, prefix: '{"message":"Server Error","x":"' });
    const e = await failure(storeAt(s, make(s.url)).get('docs/a.json'));
    expect(e).toBeInstanceOf(UpstreamUnavailable);
    expect((e as Error).message).toMatch(/upstream unavailable \(HTTP 500: Server Error\)/);
    expect(s.hits).toHaveLength(4);
    for (const hit of s.hits) {
      await hit.done;
      expect(hit.abandoned).toBe(true);
    }
  });

  it('an answer over the store cap: TransportError too-large naming the option, not retried', async () => {
    const s = await hostileApi({ kind: 'endless', status: 200 });
    const e = await failure(storeAt(s, make(s.url), { maxResponseBytes: 256 * 1024 }).get('docs/a.json'));
    expect(e).toBeInstanceOf(TransportError);
    const err = e as TransportError;
    expect(err.data).toMatchObject({ reason: 'too-large', limit: 262144, operation: 'get' });
    expect(err.message).toMatch(/answered more than 262144 bytes, the response-size limit/);
    expect(err.message).toMatch(/raise RemoteApiRefStore's maxResponseBytes option/);
    expect(s.hits).toHaveLength(1);
  });

  it('a secondary rate limit whose JSON body is cut at 8 KiB is still RateLimited (its message is read)', async () => {
    const errors = Array.from({ length: 400 }, (_, i) => ({ resource: 'Repository', code: 'custom', field: `f${i}` }));
    const body = JSON.stringify({
      message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      errors,
    });
    expect(body.length).toBeGreaterThan(16 * 1024);
    const s = await hostileApi({ kind: 'body', status: 403, body });
    const e = await failure(storeAt(s, make(s.url), { maxRetryAfterSeconds: 0 }).get('docs/a.json'));
    expect(e).toBeInstanceOf(RateLimited);
    expect((e as RateLimited).message).toMatch(
      /secondary rate limit, retry after 60s .*exceeded a secondary rate limit/,
    );
  });
});

it('maxResponseBytes is validated, InvalidConfig naming the field', () => {
  for (const bad of [0, 1023, 1.5, '1000000', -1]) {
    let e: unknown;
    try {
      new RemoteApiRefStore({ transport: fetchTransport(), owner: 'o', repo: 'r', maxResponseBytes: bad as number });
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InvalidConfig);
    expect((e as InvalidConfig).data.field).toBe('maxResponseBytes');
    expect((e as Error).message).toMatch(/maxResponseBytes must be an integer number of bytes of at least 1024/);
  }
});
