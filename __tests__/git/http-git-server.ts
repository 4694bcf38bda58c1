/**
 * A git smart-HTTP server on loopback for tests: `git http-backend` (CGI, shipped with git) behind a
 * node:http server. With a token it demands HTTP Basic auth (that token as the password, any user or
 * the one `username` names); pushes are enabled (`REMOTE_USER` is set for every accepted request),
 * except with `readOnlyToken`, which may fetch but gets 403 on receive-pack, as GitHub answers. With `cors`, it answers
 * preflights and adds CORS headers, as Gitea can be configured to, so pages on another origin can use
 * it. Every request is logged (method, URL, auth outcome, the v2 command of a POST, bytes sent back).
 * See https://git-scm.com/docs/git-http-backend
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GIT_TEST_ENV } from './helpers.js';

export interface LoggedRequest {
  method: string;
  url: string;
  auth: 'none' | 'ok' | 'wrong';
  user?: string;
  /** `ls-refs` or `fetch` for a protocol-v2 POST to git-upload-pack. */
  command?: string;
  /** Bytes of the response body. */
  bytes?: number;
}

export interface GitHttpServer {
  url: string;
  /** Every request: method, URL (path and query) and whether its credentials were accepted. */
  requests: LoggedRequest[];
  stop(): Promise<void>;
}

export interface GitHttpServerOptions {
  /** Answer CORS preflights and add CORS headers for any origin. */
  cors?: boolean;
  /** Accept the token only with this Basic username (as GitLab wants `oauth2`); default any user. */
  username?: string;
  /** A second token that may read but not push: receive-pack requests with it get 403, as on GitHub. */
  readOnlyToken?: string;
}

type Auth = { auth: 'none' | 'ok' | 'wrong'; user?: string; readOnly?: boolean };

function check(req: IncomingMessage, token: string, options: GitHttpServerOptions): Auth {
  const h = req.headers.authorization;
  if (!h?.startsWith('Basic ')) return { auth: 'none' };
  const [user, ...rest] = Buffer.from(h.slice(6), 'base64').toString('utf8').split(':');
  const password = rest.join(':');
  const known = password === token || (options.readOnlyToken !== undefined && password === options.readOnlyToken);
  const userOk = options.username === undefined || user === options.username;
  return {
    auth: known && userOk ? 'ok' : 'wrong',
    ...(user ? { user } : {}),
    ...(known && password !== token ? { readOnly: true } : {}),
  };
}

/** A push (the receive-pack advertisement or the push itself). */
const isPush = (url: string) => /[?&]service=git-receive-pack\b|\/git-receive-pack$/.test(url.split('#')[0] ?? '');

function cgi(req: IncomingMessage, res: ServerResponse, projectRoot: string, user: string, log: LoggedRequest): void {
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
  let first = true;
  req.on('data', (chunk: Buffer) => {
    // The first packet of a v2 request is `command=<name>`.
    if (first) log.command = /^[0-9a-f]{4}command=([a-z-]+)/.exec(chunk.toString('latin1'))?.[1];
    first = false;
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  log.bytes = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      log.bytes = (log.bytes ?? 0) + chunk.length;
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
    log.bytes = head.length - end - 4;
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => res.end());
}

function corsHeaders(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, accept, git-protocol');
  res.setHeader('Access-Control-Max-Age', '600');
  res.setHeader('Vary', 'Origin');
}

/**
 * Serve the repositories below `projectRoot` (e.g. `<root>/data.git` at `<url>/data.git`). With a
 * `token`, every request needs `Authorization: Basic <any user>:<token>`; without one, none does.
 */
export async function startGitHttpServer(
  projectRoot: string,
  token: string | undefined,
  options: GitHttpServerOptions = {},
): Promise<GitHttpServer> {
  const requests: GitHttpServer['requests'] = [];
  const server = createServer((req, res) => {
    if (options.cors) corsHeaders(req, res);
    if (options.cors && req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const { readOnly, ...a } = token === undefined ? { auth: 'none' as const } : check(req, token, options);
    const log: LoggedRequest = { method: req.method ?? '', url: req.url ?? '', ...a };
    requests.push(log);
    if (token !== undefined && a.auth !== 'ok') {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="docdb test"' });
      res.end('authentication required\n');
      return;
    }
    if (readOnly && isPush(req.url ?? '')) {
      res.writeHead(403, { 'Content-Type': 'text/plain' }).end('Write access to repository not granted.\n');
      return;
    }
    cgi(req, res, projectRoot, a.user ?? 'anonymous', log);
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
