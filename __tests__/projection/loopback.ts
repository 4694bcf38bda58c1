/**
 * Loopback servers for source tests: a handler sees each request with its 1-based number, and the test
 * counts requests (never time). `closeServers` in an `afterEach` ends every server a test started;
 * `project` runs a spec against one, the way a library user would (runProjections + createOctokit).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runProjections } from '../../src/projection/run/index.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { createOctokit } from '../../src/transport/create-octokit.js';

export type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

const servers: Server[] = [];

/** A loopback server; `handler` gets each request and its 1-based number; `closed` settles when a client hangs up. */
export async function serve(handler: Handler): Promise<{ url: string; requests: () => number; closed: Promise<void> }> {
  let n = 0;
  let onClose!: () => void;
  const closed = new Promise<void>((r) => (onClose = r));
  const server = createServer((req, res) => {
    res.on('close', onClose);
    handler(req, res, ++n);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => n, closed };
}

/** Close every server `serve` started (call in afterEach). */
export async function closeServers(): Promise<void> {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
}

/** Answer 200 with a JSON body. */
export const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));

/** The origin a request reached (for building absolute `Link` URLs back to the same server). */
export const originOf = (req: IncomingMessage) => `http://127.0.0.1:${req.socket.localPort}`;

/** Run `yaml` (spec file `docdb.yml`) with `api` as the GitHub API; resolves with the error (if any) and the section's tip. */
export async function project(yaml: string, api: string, extra: Partial<Parameters<typeof runProjections>[0]> = {}) {
  const store = new MemoryRefStore();
  const error = await runProjections({
    spec: parseSpec(yaml, 'docdb.yml', { defaultRepository: 'o/r' }),
    client: createOctokit({ auth: 'ghp_bounded', baseUrl: api, writeSpacingMs: 0, retryAfterBaseMs: 1 }),
    store,
    apiUrl: api,
    sleep: async () => {},
    ...extra,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, head: await store.head() };
}
