/**
 * A front end in front of the emulator that treats connections the way a real API front end does: it
 * closes a keep-alive connection that stays idle (Node's `keepAliveTimeout`, a FIN), and optionally resets
 * a reused connection when its next request arrives — the race of a server closing an idle connection just
 * as a request is sent on it, where the request never reaches the application. What reaches the emulator
 * is in its own request log; the front end counts what it refused.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FrontEnd {
  url: string;
  /** Requests reset unprocessed (method and path). */
  readonly refused: string[];
  /** Connections opened by clients. */
  readonly connections: number;
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

async function forward(upstream: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && typeof v === 'string') headers[k] = v;
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  let answer: Response;
  try {
    answer = await fetch(`${upstream}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) });
  } catch {
    req.socket.destroy(); // the emulator dropped the connection (an injected fault): so does the front end
    return;
  }
  const out: Record<string, string> = {};
  answer.headers.forEach((v, k) => {
    if (!HOP_BY_HOP.has(k)) out[k] = v;
  });
  const bytes = Buffer.from(await answer.arrayBuffer());
  res.writeHead(answer.status, out).end(bytes);
}

/**
 * Start a front end for `upstream` (the emulator's URL).
 *
 * @example
 * const fe = await startFrontEnd(em.url, { keepAliveTimeoutMs: 1, resetReused: true });
 * const store = new RemoteApiRefStore({ transport: fetchTransport(), apiUrl: fe.url, … });
 */
export async function startFrontEnd(
  upstream: string,
  opts: { keepAliveTimeoutMs: number; resetReused?: boolean },
): Promise<FrontEnd> {
  const served = new WeakMap<Socket, number>();
  const refused: string[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const n = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, n);
    if (opts.resetReused && n > 1) {
      refused.push(`${req.method} ${req.url}`);
      req.socket.resetAndDestroy();
      return;
    }
    forward(upstream, req, res).catch(() => req.socket.destroy());
  });
  server.keepAliveTimeout = opts.keepAliveTimeoutMs;
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused,
    get connections() {
      return connections;
    },
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/**
 * A transport wrapper that keeps the event loop busy for `ms` before every request: the CPU pause of a
 * large write (encoding, hashing, building trees), during which the client cannot see a connection close.
 */
export function busyBefore<T extends { request: (r: never) => Promise<unknown> }>(inner: T, ms: number): T {
  return {
    ...inner,
    request: async (r: never) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {}
      return inner.request(r);
    },
  } as T;
}
