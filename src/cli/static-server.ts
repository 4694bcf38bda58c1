/**
 * A tiny static file server on loopback for `docdb view`, the playground and the browser tests: serves
 * files under `root` (never outside it: a path that decodes to `..` beyond the root is 403, one that does
 * not decode is 400), with the right content types, no caching, and the caller's `headers` on every answer
 * (`docdb view`: the page's Content-Security-Policy with `frame-ancestors 'none'`, viewer-site.ts `siteHeaders`).
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The request's path, decoded; undefined when it does not decode (`%E0%A4%A`, a lone `%`) or is not a path.
 * The target is put behind a fixed origin, not resolved against it: resolved, `//evil.example/viewer` would
 * be a host and the path `/viewer`.
 */
function decodedPath(url: string | undefined): string | undefined {
  const target = url ?? '/';
  if (!target.startsWith('/')) return undefined;
  try {
    return decodeURIComponent(new URL(`http://x${target}`).pathname);
  } catch {
    return undefined;
  }
}

export interface StaticServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * @example
 * const site = await startStaticServer({ root: 'lib/playground' });
 * console.log(`${site.url}/index.html`);
 */
export async function startStaticServer(options: {
  root: string;
  host?: string;
  port?: number;
  /** Sent with every answer (a 404 and a redirect too). */
  headers?: Readonly<Record<string, string>>;
}): Promise<StaticServer> {
  const root = resolve(options.root);
  const host = options.host ?? '127.0.0.1';
  const server = createServer(async (req, res) => {
    for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
    const path = decodedPath(req.url);
    // A malformed escape made decodeURIComponent throw inside this async handler: an unhandled rejection
    // that ended the whole process. It is a bad request, nothing more.
    if (path === undefined || path.includes('\0')) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad request path');
      return;
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    // `/viewer` is a directory: send the browser to `/viewer/` (as GitHub Pages does), so that the page's
    // relative `./viewer.js` resolves inside it.
    if (!path.endsWith('/') && (await stat(file).catch(() => undefined))?.isDirectory()) {
      const query = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '';
      // One leading slash: `//host/` would be a redirect to another site.
      res.writeHead(301, { Location: `/${encodeURI(path.replace(/^\/+/, ''))}/${query}` }).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => ok());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    server,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
