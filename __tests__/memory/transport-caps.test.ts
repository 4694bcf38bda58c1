/**
 * Peak memory of a document read whose answer is a 500 that never ends (issue 27 item 3), measured in a
 * child process (peak-rss.ts): the transport keeps 8 KiB of an error body and cancels the rest, so the
 * read costs a bounded amount however long the server writes. Before the cap the same read grew until the
 * transport's timeout (docs/transports.md § Response size has the numbers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { emulator, freshRepo, OWNER, TOKEN } from '../remote-api/helpers.js';
import { type HostileServer, hostileServer } from '../transport/hostile-server.js';
import { MiB, peakRss } from './peak-rss.js';

const SCENARIO = '__tests__/memory/scenarios/hostile-read.ts';
let em: EmulatorHandle;
let repo: string;
let api: HostileServer;
let endless200: HostileServer;

beforeAll(async () => {
  em = await emulator();
  repo = freshRepo(em);
  const seed = new RemoteApiRefStore({ transport: fetchTransport(), apiUrl: em.url, owner: OWNER, repo, token: TOKEN });
  await seed.put('docs/a.json', '{"a":1}');
  api = await hostileServer(
    { kind: 'endless', status: 500, prefix: '{"message":"Server Error","x":"' },
    { upstream: em.url, match: /\/contents\// },
  );
  endless200 = await hostileServer({ kind: 'endless', status: 200 }, { upstream: em.url, match: /\/contents\// });
});
afterAll(async () => {
  await api?.close();
  await endless200?.close();
  await em?.stop();
});

describe('an endless 500 body costs a bounded amount of memory', () => {
  it.each(['fetch', 'octokit'])(
    'over the %s transport: UpstreamUnavailable, < 32 MiB above baseline',
    async (kind) => {
      const before = api.hits.length;
      const m = await peakRss(SCENARIO, [api.url, OWNER, repo, TOKEN, kind]);
      expect(m.error?.code).toBe('UpstreamUnavailable');
      expect(m.aboveBytes).toBeLessThan(32 * MiB);
      const hits = api.hits.slice(before);
      expect(hits).toHaveLength(1);
      await hits[0]?.done;
      expect(hits[0]?.abandoned).toBe(true);
      expect(hits[0]?.written).toBeLessThan(64 * MiB);
    },
    60_000,
  );
});

it('an endless 200 is refused at the default cap (160 MiB): TransportError too-large, < 256 MiB above baseline', async () => {
  const m = await peakRss(SCENARIO, [endless200.url, OWNER, repo, TOKEN, 'fetch']);
  expect(m.error?.code).toBe('TransportError');
  expect(m.error?.data).toMatchObject({ reason: 'too-large', limit: 160 * MiB });
  expect(m.aboveBytes).toBeLessThan(256 * MiB);
  await endless200.hits[0]?.done;
  expect(endless200.hits[0]?.abandoned).toBe(true);
}, 120_000);
