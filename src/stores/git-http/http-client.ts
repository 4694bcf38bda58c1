/**
 * The smart-HTTP requests of a GitHttpRefStore (https://git-scm.com/docs/http-protocol), over the
 * one transport seam. This is the only place that:
 * - adds the Authorization header, and only to the remote's own origin;
 * - handles redirects: never followed by the transport (`redirect: 'manual'`); a GET to the same origin
 *   is followed here (as git's `http.followRedirects=initial` does, and the new base URL is kept), a
 *   redirect to another origin — or of a POST — is refused, so the token never leaves the origin;
 * - caps every reply's size (the transport also times out every request);
 * - maps HTTP statuses to typed errors, none of which carries the token.
 */
import {
  AuthInvalid,
  AuthMissing,
  Forbidden,
  InvalidConfig,
  InvalidResponse,
  NotFound,
  TransportError,
  UpstreamUnavailable,
} from '../../core/errors.js';
import type { HttpResponse, HttpTransport } from '../../transport/types.js';
import type { RemoteApiLogEvent } from '../remote-api/index.js';
import { basicAuth, type Remote } from './remote.js';

/** One request to the repository: `path` is relative to the remote URL (`/info/refs?service=…`). */
export interface GitRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: Uint8Array;
  /** Request headers beyond auth (Content-Type, Accept, Git-Protocol). */
  headers?: Record<string, string>;
  /** Content-Type the reply must have (a git server's, not an HTML login page's). */
  expect: string;
  /** Largest reply accepted, in bytes. */
  maxBytes: number;
  /** The option that sets `maxBytes`, named when a reply is larger (e.g. `maxFetchBytes`). */
  limitName?: string;
}

export interface GitHttpClientOptions {
  remote: Remote;
  transport: HttpTransport;
  token: string | undefined;
  username: string;
  userAgent: string;
  logger: ((event: RemoteApiLogEvent) => void) | undefined;
}

/** Same-origin GET redirects followed before giving up (git's own limit is 20; 5 is plenty). */
const MAX_REDIRECTS = 5;

/** Requests and bytes of one client, for `OperationMeta.requests`, tests and the benchmark. */
export interface TrafficCounters {
  requests: number;
  bytesUp: number;
  bytesDown: number;
}

/**
 * Requests to one repository over smart HTTP.
 *
 * @example
 * const client = new GitHttpClient({ remote, transport: fetchTransport(), token, username: 'oauth2', userAgent, logger });
 * const body = await client.send({ method: 'GET', path: '/info/refs?service=git-upload-pack', expect, maxBytes });
 */
export class GitHttpClient {
  readonly traffic: TrafficCounters = { requests: 0, bytesUp: 0, bytesDown: 0 };
  /** Repository URL, updated once when the first GET is redirected within the origin. */
  private base: string;
  private readonly o: Omit<GitHttpClientOptions, 'token'>;
  /** A `#private` field: util.inspect, JSON.stringify and object spreads of the client never show it. */
  readonly #token: string | undefined;

  constructor({ token, ...options }: GitHttpClientOptions) {
    this.o = options;
    this.#token = token;
    this.base = options.remote.url;
  }

  /** The repository URL in use (after a same-origin redirect of the first request, the new one). */
  get url(): string {
    return this.base;
  }

  /** Send a request; resolves with the body of a 200 reply of the expected type, else throws typed. */
  async send(r: GitRequest): Promise<Uint8Array> {
    let url = this.base + r.path;
    for (let hop = 0; ; hop++) {
      const res = await this.once(r, url);
      if (res.status === 0 || (res.status >= 300 && res.status < 400)) {
        url = this.redirectTarget(r, url, res, hop);
        continue;
      }
      this.check(r, url, res);
      return res.body;
    }
  }

  private async once(r: GitRequest, url: string): Promise<HttpResponse> {
    // Git hosts expect a `git/…` User-Agent; browsers send their own (and a preflight would name ours).
    const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
    const headers: Record<string, string> = { ...(node ? { 'User-Agent': this.o.userAgent } : {}), ...r.headers };
    // The token goes to the remote's origin only; `url` is on it (redirectTarget refuses the rest).
    if (this.#token !== undefined && new URL(url).origin === this.o.remote.origin) {
      headers.Authorization = basicAuth(this.o.username, this.#token);
    }
    this.traffic.requests++;
    this.traffic.bytesUp += r.body?.length ?? 0;
    const res = await this.o.transport
      .request({
        method: r.method,
        url,
        headers,
        ...(r.body ? { body: r.body } : {}),
        redirect: 'manual',
        maxResponseBytes: r.maxBytes,
      })
      .catch((e: unknown) => {
        if (e instanceof TransportError && e.data.reason === 'too-large') throw tooLarge(r, url, e);
        throw e;
      });
    this.traffic.bytesDown += res.body.length;
    this.o.logger?.({
      level: 'debug',
      message: `${r.method} ${describe(url)} → ${res.status}`,
      data: { method: r.method, url: describe(url), status: res.status, bytes: res.body.length },
    });
    if (res.body.length > r.maxBytes) throw tooLarge(r, url);
    return res;
  }

  /** Where a redirect may be followed: a GET within the origin; anything else is refused. */
  private redirectTarget(r: GitRequest, from: string, res: HttpResponse, hop: number): string {
    const location = res.headers.location;
    const refuse = (why: string): never => {
      throw new InvalidConfig(
        'remote',
        `${describe(from)} redirected ${why}; use the repository's final URL as remote`,
        {
          allowed: 'the URL the server does not redirect',
        },
      );
    };
    if (res.status === 0 || location === undefined) return refuse('(the browser does not show where)');
    let target: URL;
    try {
      target = new URL(location, from);
    } catch {
      return refuse('to an invalid URL');
    }
    if (target.origin !== this.o.remote.origin) {
      return refuse(`to another origin (${target.origin}); docdb never sends the token to another origin`);
    }
    if (r.method !== 'GET' || hop >= MAX_REDIRECTS) return refuse(hop >= MAX_REDIRECTS ? 'too often' : 'a POST');
    // Keep the new repository URL for later requests, as git does after the first request.
    const href = target.href;
    if (href.endsWith(r.path)) this.base = href.slice(0, -r.path.length);
    return href;
  }

  /** Map a non-200 reply, or a 200 of the wrong type (not a git server), to a typed error. */
  private check(r: GitRequest, url: string, res: HttpResponse): void {
    const where = describe(url);
    const data = { url: where, status: res.status };
    if (res.status === 401) {
      if (this.#token === undefined) throw new AuthMissing(`${where} needs credentials: give a token`, data);
      throw new AuthInvalid(`${where} rejected the token (HTTP 401); check it and the username`, data);
    }
    if (res.status === 403) throw new Forbidden(`${where} refused access (HTTP 403): the token lacks permission`, data);
    if (res.status === 404) throw new NotFound(`no git repository at ${describe(this.base)} (HTTP 404)`, data);
    if (res.status >= 500) throw new UpstreamUnavailable(`${where} failed (HTTP ${res.status})`, data);
    if (res.status !== 200) throw new InvalidResponse(`${where} answered HTTP ${res.status}`, data);
    const type = (res.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== r.expect) {
      throw new InvalidResponse(
        `${describe(this.base)} is not a git smart-HTTP server: ${where} answered ${type || 'no content type'}, not ${r.expect}`,
        { ...data, contentType: type ?? '' },
      );
    }
  }
}

/** A reply over the request's cap, naming the option that raises it (the transport's own words as cause). */
function tooLarge(r: GitRequest, url: string, cause?: unknown): TransportError {
  const raise = r.limitName ? `; raise the store's ${r.limitName} option if this remote is trusted` : '';
  return new TransportError(
    `${r.method} ${describe(url)} answered more than ${r.maxBytes} bytes${raise}`,
    { url: describe(url), reason: 'too-large', limit: r.limitName ?? 'maxBytes', max: r.maxBytes },
    cause === undefined ? undefined : { cause },
  );
}

/** A URL for messages: origin and path only (never a query, which could carry anything). */
function describe(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}
