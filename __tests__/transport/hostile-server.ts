/**
 * A loopback server that answers like a hostile `api-url`: bodies that never end, bodies over a cap (with
 * and without `Content-Length`), long JSON error bodies. Optionally a proxy in front of an emulator: only
 * requests whose path matches `match` get the hostile answer, every other one is passed through, so a store
 * reads its ref as usual and meets the hostile answer on the read the test aims at.
 *
 * The server counts what it wrote and sees when the client went away: an endless body ends only when the
 * client stops reading, so a test of it needs no timeout to fail — an unbounded reader never returns.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the hostile server answers. */
export type Hostile =
  /** `status`, `prefix`, then filler for as long as the client reads. */
  | { kind: 'endless'; status: number; prefix?: string }
  /** `status` with `bytes` of filler, its length declared in `Content-Length` or not (chunked). */
  | { kind: 'sized'; status: number; bytes: number; declared: boolean }
  /** `status` with this body as is. */
  | { kind: 'body'; status: number; body: string; headers?: Record<string, string> };

/** One hostile answer, as the server saw it. */
export interface HostileHit {
  path: string;
  /** Bytes handed to the socket before the answer ended or the client went away. */
  written: number;
  /** True when the client closed the connection before the body ended. */
  abandoned: boolean;
  /** Settles when the answer is over (ended or abandoned). */
  done: Promise<void>;
}

export interface HostileServer {
  url: string;
  hits: HostileHit[];
  /** Requests passed through to the upstream. */
  passed: number;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Start the server. `upstream`: an emulator URL to pass non-matching requests to; `match`: the paths that
 * get `answer` (default: all).
 *
 * @example
 * const s = await hostileServer({ kind: 'endless', status: 500 });
 * await fetchTransport().request({ method: 'GET', url: s.url, headers: {} }); // 500, 8 KiB of body
 */
export async function hostileServer(
  answer: Hostile,
  options: { upstream?: string; match?: RegExp } = {},
): Promise<HostileServer> {
  const state: HostileServer = { url: '', hits: [], passed: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (options.upstream && options.match && !options.match.test(path)) {
      state.passed++;
      void pass(req, res, options.upstream);
      return;
    }
    state.hits.push(hostile(answer, path, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return state;
}

function hostile(answer: Hostile, path: string, res: ServerResponse): HostileHit {
  let finish!: () => void;
  const hit: HostileHit = { path, written: 0, abandoned: false, done: new Promise<void>((r) => (finish = r)) };
  res.on('close', () => {
    hit.abandoned = !res.writableFinished;
    finish();
  });
  if (answer.kind === 'body') {
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
    hit.written = Buffer.byteLength(answer.body);
    res.end(answer.body);
    return hit;
  }
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (answer.kind === 'sized' && answer.declared) headers['content-length'] = String(answer.bytes);
  res.writeHead(answer.status, headers);
  const prefix = answer.kind === 'endless' ? Buffer.from(answer.prefix ?? '') : Buffer.alloc(0);
  const total = answer.kind === 'sized' ? answer.bytes : Number.POSITIVE_INFINITY;
  void pump(res, hit, prefix, total);
  return hit;
}

/** Write `prefix`, then filler up to `total` bytes, waiting for the socket to drain (never buffering ahead). */
async function pump(res: ServerResponse, hit: HostileHit, prefix: Buffer, total: number): Promise<void> {
  let first = prefix.length > 0 ? prefix : undefined;
  while (!res.destroyed && hit.written < total) {
    const next = first ?? CHUNK.subarray(0, Math.min(CHUNK.length, total - hit.written));
    first = undefined;
    hit.written += next.length;
    if (!res.write(next)) {
      await new Promise<void>((r) => {
        const go = () => {
          res.off('drain', go);
          res.off('close', go);
          r();
        };
        res.on('drain', go);
        res.on('close', go);
      });
    }
  }
  if (!res.destroyed) res.end();
}

/** Forward one request to the upstream and copy its answer back. */
async function pass(req: IncomingMessage, res: ServerResponse, upstream: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers[k] = v;
  const up = await fetch(upstream + (req.url ?? '/'), {
    method: req.method ?? 'GET',
    headers,
    ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    redirect: 'manual',
  });
  const body = Buffer.from(await up.arrayBuffer());
  const out: Record<string, string> = {};
  up.headers.forEach((v, k) => {
    if (k !== 'content-encoding' && k !== 'content-length' && k !== 'transfer-encoding') out[k] = v;
  });
  res.writeHead(up.status, out).end(body);
}
