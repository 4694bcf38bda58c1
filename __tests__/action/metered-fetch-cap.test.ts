/**
 * The Action's metered fetch reads a create-commit reply for its `verification` (issue 27 item 8): from a
 * hostile `api-url` that reply may never end, so it reads at most 1 MiB of it and leaves the rest to the
 * capped reader above it. Without the bound the copy would be read until the server stops, which never
 * happens here: the test would not return.
 */
import { afterEach, expect, it } from 'vitest';
import { meteredFetch } from '../../src/action/metered-fetch.js';
import { type HostileServer, hostileServer } from '../transport/hostile-server.js';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
});

it('an endless 201 reply to POST /git/commits: the verification read gives up, the answer is handed on', async () => {
  server = await hostileServer({ kind: 'endless', status: 201, prefix: '{"sha":"' });
  const { fetch, meter } = meteredFetch(globalThis.fetch);
  const res = await fetch(`${server.url}/repos/o/r/git/commits`, { method: 'POST', body: '{}' });
  expect(res.status).toBe(201);
  expect(meter.verification.size).toBe(0);
  await res.body?.cancel();
  await server.hits[0]?.done;
  expect(server.hits[0]?.abandoned).toBe(true);
  expect(server.hits[0]?.written).toBeLessThan(64 * 1024 * 1024);
});
