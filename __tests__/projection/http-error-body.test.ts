/**
 * An `http` source's error answers are never read (issue 27 item 3): the run reports the status alone, so a
 * 500 whose body never ends costs the socket buffers per attempt, not the 50 MB body cap.
 */
import { afterEach, expect, it } from 'vitest';
import { InvalidResponse } from '../../src/core/errors.js';
import { MAX_HTTP_BYTES } from '../../src/projection/sources/http-fetch.js';
import { type HostileServer, hostileServer } from '../transport/hostile-server.js';
import { project } from './loopback.js';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
});

it('an endless 500 body: InvalidResponse after the retries, each body abandoned unread', async () => {
  server = await hostileServer({ kind: 'endless', status: 500 });
  const spec = `projections:\n  x:\n    source: { type: http, url: "${server.url}/a.json" }\n    identity: { id: "{index}" }\n`;
  const { error, head } = await project(spec, server.url, { sleep: async () => {} });
  expect(error).toBeInstanceOf(InvalidResponse);
  expect((error as Error).message).toContain(`GET ${server.url}/a.json answered 500 (after 3 retries)`);
  expect(server.hits).toHaveLength(4);
  for (const hit of server.hits) {
    await hit.done;
    expect(hit.abandoned).toBe(true);
    expect(hit.written).toBeLessThan(MAX_HTTP_BYTES / 4);
  }
  expect(head).toBeNull();
});
