/**
 * The node:http adapter of the emulator: turn an IncomingMessage into a web `Request`, let the app
 * answer, write the `Response` back. A dropped connection (reset, hang, drop-reply faults) destroys
 * the socket. Nothing GitHub-specific lives here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { EmulatorApp } from './app.js';
import { ConnectionDropped } from './faults.js';

/** Host header if it is a plain host[:port], else the bound address (URLs in bodies use it). */
function hostOf(req: IncomingMessage, fallback: string): string {
  const h = req.headers.host;
  return h && /^[A-Za-z0-9.\-:[\]]+$/.test(h) ? h : fallback;
}

function toRequest(req: IncomingMessage, fallbackHost: string, signal: AbortSignal): Request {
  const method = (req.method ?? 'GET').toUpperCase();
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${hostOf(req, fallbackHost)}`);
  } catch {
    url = new URL(req.url ?? '/', `http://${fallbackHost}`);
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
    } catch {
      // A header value fetch would refuse: GitHub ignores such headers too.
    }
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

async function serve(app: Pick<EmulatorApp, 'fetch'>, req: IncomingMessage, res: ServerResponse, fallbackHost: string) {
  const aborted = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  let response: Response;
  try {
    response = await app.fetch(toRequest(req, fallbackHost, aborted.signal), { rawTarget: req.url ?? '/' });
  } catch (err) {
    if (!(err instanceof ConnectionDropped)) console.error('[emulator] internal error:', err);
    req.socket.destroy();
    return;
  }
  if (!req.complete) req.resume(); // a body the core did not read (GET/HEAD) is drained
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  res.writeHead(response.status, headers);
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

/**
 * Listen on `host:port` (port 0 = a free one) and serve `app`.
 *
 * @example
 * const { server, port } = await listen(createEmulatorApp(), '127.0.0.1', 0);
 */
export async function listen(
  app: Pick<EmulatorApp, 'fetch'>,
  host: string,
  port: number,
): Promise<{ server: Server; port: number }> {
  let bound = `${host}:${port}`;
  const server = createServer((req, res) => {
    serve(app, req, res, bound).catch((err) => {
      console.error('[emulator] internal error:', err);
      req.socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as { port: number }).port;
  bound = `${host.includes(':') ? `[${host}]` : host}:${actual}`;
  return { server, port: actual };
}
