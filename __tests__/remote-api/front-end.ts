/**
 * A front end (a proxy) between a client and the emulator that loses connections the two ways a real
 * API front end can, and records every request that arrives at it:
 * - **idle close** (`expireIdle`): the client has been busy longer than the server's keep-alive timeout,
 *   and the server closes every idle connection. On a real network the server's FIN takes half a round
 *   trip to reach the client, and a request the client sends meanwhile arrives on a connection the
 *   server has closed: it is reset unprocessed, and the client cannot tell that from a reply lost after
 *   processing. Here the FIN is held until the client's next request, so the two cross every time
 *   instead of by chance (undici reads a FIN that has already arrived before it reuses a connection,
 *   however long the client was busy: no CPU pause alone gets a request onto a closed connection). The
 *   test says when the idle period has passed, so no timer decides which request meets a closed
 *   connection;
 * - **lost reply** (`dropReplyTo`): the request is forwarded, the emulator applies it, and the client's
 *   connection is destroyed before the reply is relayed.
 * What reaches the emulator is in its own request log; what reached the front end is in `arrivals`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { HttpTransport } from '../../src/transport/types.js';

/** One request as the front end saw it. */
export interface Arrival {
  method: string;
  path: string;
  /** Sent on a connection that had carried a request before. */
  reused: boolean;
  /** Sent on a connection the front end had closed as idle: reset, never forwarded. */
  late: boolean;
  /** Forwarded and applied, reply never relayed (`dropReplyTo`). */
  dropped: boolean;
  /** The emulator's status, when it was forwarded. */
  status?: number;
}

export interface FrontEndOptions {
  /** Requests whose reply is lost after the emulator applied them. */
  dropReplyTo?: (method: string, path: string) => boolean;
}

export interface FrontEnd {
  url: string;
  readonly arrivals: readonly Arrival[];
  /** Connections opened by clients. */
  readonly connections: number;
  /**
   * The keep-alive timeout has passed: the server closes every connection that is not carrying a
   * request (the idle period of a client busy for longer, without a sleep in the test).
   */
  expireIdle(): void;
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/** Per-connection state: requests served, one in progress, and whether the server has closed it. */
interface Conn {
  served: number;
  busy: boolean;
  closed: boolean;
}

/** The emulator's answer to `req`, or undefined when the emulator dropped the connection (a fault). */
async function relay(upstream: string, req: IncomingMessage): Promise<Response | undefined> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && typeof v === 'string') headers[k] = v;
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  try {
    return await fetch(`${upstream}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) });
  } catch {
    return undefined;
  }
}

/**
 * Start a front end for `upstream` (the emulator's URL).
 *
 * @example
 * const fe = await startFrontEnd(em.url);
 * const store = new RemoteApiRefStore({ transport: idleBeforeCommits(fetchTransport(), fe), apiUrl: fe.url, … });
 */
export async function startFrontEnd(upstream: string, opts: FrontEndOptions = {}): Promise<FrontEnd> {
  const conns = new Map<Socket, Conn>();
  const arrivals: Arrival[] = [];
  let connections = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const conn = conns.get(req.socket) as Conn;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const method = req.method ?? 'GET';
    const arrival: Arrival = { method, path, reused: conn.served > 0, late: conn.closed, dropped: false };
    arrivals.push(arrival);
    conn.served++;
    if (conn.closed) {
      // The server's close crossed this request: reset. The FINs of the other connections it closed
      // arrive now, so the client sees them before it sends again (as undici does with a FIN it has read).
      for (const [socket, c] of conns) if (c.closed && socket !== req.socket) socket.destroy();
      return req.socket.resetAndDestroy();
    }
    conn.busy = true;
    res.once('finish', () => {
      conn.busy = false;
    });
    const answer = await relay(upstream, req);
    if (answer === undefined) return req.socket.destroy(); // the emulator dropped it: so does the front end
    arrival.status = answer.status;
    const bytes = Buffer.from(await answer.arrayBuffer()); // read in full: the emulator has applied it
    if (opts.dropReplyTo?.(method, path)) {
      arrival.dropped = true;
      return req.socket.destroy();
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!HOP_BY_HOP.has(k)) out[k] = v;
    });
    res.writeHead(answer.status, out).end(bytes);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  // No Keep-Alive hint (GitHub sends none; undici would not reuse a connection hinted to close within
  // a second) and no timer of Node's: `expireIdle` closes idle connections.
  server.keepAliveTimeout = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    conns.set(socket, { served: 0, busy: false, closed: false });
    socket.on('close', () => conns.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    get connections() {
      return connections;
    },
    expireIdle: () => {
      for (const c of conns.values()) if (!c.busy) c.closed = true;
    },
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/**
 * A transport wrapper for a client that is busy (building trees) for longer than the keep-alive timeout
 * before it creates a commit: before the first attempt of each `POST /git/commits` body, the front end
 * closes its idle connections. A re-send of the same body follows without a pause.
 */
export function idleBeforeCommits(inner: HttpTransport, fe: FrontEnd): HttpTransport {
  const delayed = new Set<string>();
  const decoder = new TextDecoder();
  return {
    request: async (req) => {
      if (req.method === 'POST' && new URL(req.url).pathname.endsWith('/git/commits')) {
        const body = req.body ? decoder.decode(req.body) : '';
        if (!delayed.has(body)) {
          delayed.add(body);
          // The pause: the event loop turns (the connection just used goes back to the client's pool),
          // and the server's keep-alive timeout passes.
          await new Promise((r) => setImmediate(r));
          fe.expireIdle();
        }
      }
      return inner.request(req);
    },
  };
}
