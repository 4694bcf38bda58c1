/**
 * A git smart-HTTP server on loopback for tests: `git http-backend` (CGI) behind a node:http server
 * that demands HTTP Basic auth with one token, so the SubprocessGitRefStore's credential path
 * (GIT_ASKPASS) is exercised against real git over https-like transport without any network.
 * See https://git-scm.com/docs/git-http-backend
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GIT_TEST_ENV } from './helpers.js';

export interface GitHttpServer {
  url: string;
  /** Every request: method, URL (path and query) and whether its credentials were accepted. */
  requests: { method: string; url: string; auth: 'none' | 'ok' | 'wrong'; user?: string }[];
  stop(): Promise<void>;
}

function check(req: IncomingMessage, token: string): { auth: 'none' | 'ok' | 'wrong'; user?: string } {
  const h = req.headers.authorization;
  if (!h?.startsWith('Basic ')) return { auth: 'none' };
  const [user, ...rest] = Buffer.from(h.slice(6), 'base64').toString('utf8').split(':');
  return { auth: rest.join(':') === token ? 'ok' : 'wrong', ...(user ? { user } : {}) };
}

function cgi(req: IncomingMessage, res: ServerResponse, projectRoot: string, user: string): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const child = spawn('git', ['http-backend'], {
    env: {
      ...GIT_TEST_ENV,
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      REMOTE_USER: user,
      REMOTE_ADDR: '127.0.0.1',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const i = line.indexOf(':');
      const name = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => res.end());
}

/**
 * Serve the repositories below `projectRoot` (e.g. `<root>/data.git` at `<url>/data.git`), requiring
 * `Authorization: Basic <any user>:<token>` on every request.
 */
export async function startGitHttpServer(projectRoot: string, token: string): Promise<GitHttpServer> {
  const requests: GitHttpServer['requests'] = [];
  const server = createServer((req, res) => {
    const a = check(req, token);
    requests.push({ method: req.method ?? '', url: req.url ?? '', ...a });
    if (a.auth !== 'ok') {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="docdb test"' });
      res.end('authentication required\n');
      return;
    }
    cgi(req, res, projectRoot, a.user ?? 'user');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
