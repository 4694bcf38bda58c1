/**
 * `recordingTransport`: a fake for unit tests. It records every request and answers from a script
 * (a FIFO queue of responses plus optional routes), or passes through to an inner transport while
 * recording. Never touches the network by itself.
 */

import { appendAll } from '../core/arrays.js';
import type { HttpRequest, HttpResponse, HttpTransport } from './types.js';
import { lowercaseHeaders } from './types.js';

/** A scripted answer: `body` is sent as is when bytes/string, otherwise JSON-encoded. */
export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** What a script step may be: a response, an Error to reject with (a lost connection), or a function of the request. */
export type ScriptStep =
  | ScriptedResponse
  | Error
  | ((req: RecordedRequest) => ScriptedResponse | Error | Promise<ScriptedResponse | Error>);

/** A recorded request, with helpers to read its body. */
export interface RecordedRequest extends HttpRequest {
  /** Body decoded as UTF-8 ('' when none). */
  text(): string;
  /** Body parsed as JSON (undefined when none). */
  json(): unknown;
}

export interface RecordingTransport extends HttpTransport {
  /** Every request seen, oldest first. */
  readonly requests: RecordedRequest[];
  /** Queue answers, used in order by requests that match no route. */
  enqueue(...steps: ScriptStep[]): RecordingTransport;
  /** Answer every request whose method matches and whose URL contains `url` (or matches the RegExp). Later routes win. */
  route(method: string, url: string | RegExp, step: ScriptStep): RecordingTransport;
  /** Forget recorded requests (routes and queue stay). */
  clear(): void;
  /** Number of queued answers not used yet. */
  readonly pending: number;
}

function toResponse(s: ScriptedResponse): HttpResponse {
  const headers = lowercaseHeaders(s.headers ?? {});
  let body: Uint8Array;
  if (s.body === undefined || s.body === null) body = new Uint8Array(0);
  else if (s.body instanceof Uint8Array) body = s.body;
  else if (typeof s.body === 'string') body = new TextEncoder().encode(s.body);
  else {
    body = new TextEncoder().encode(JSON.stringify(s.body));
    if (headers['content-type'] === undefined) headers['content-type'] = 'application/json; charset=utf-8';
  }
  return { status: s.status, headers, body };
}

/**
 * Create a recording fake. With `inner`, requests are forwarded to it (and still recorded) whenever
 * no route or queued answer applies — useful to count requests over a real transport.
 *
 * @example
 * const t = recordingTransport().enqueue({ status: 404, body: { message: 'Not Found' } });
 * await t.request({ method: 'GET', url: 'https://api.github.com/x', headers: {} }); // status 404
 * t.requests.length; // 1
 */
export function recordingTransport(options: { inner?: HttpTransport } = {}): RecordingTransport {
  const requests: RecordedRequest[] = [];
  const queue: ScriptStep[] = [];
  const routes: { method: string; url: string | RegExp; step: ScriptStep }[] = [];
  const t: RecordingTransport = {
    requests,
    get pending() {
      return queue.length;
    },
    enqueue(...steps) {
      appendAll(queue, steps);
      return t;
    },
    route(method, url, step) {
      routes.unshift({ method: method.toUpperCase(), url, step });
      return t;
    },
    clear() {
      requests.length = 0;
    },
    async request(req) {
      const body = req.body ? req.body.slice() : undefined;
      const rec: RecordedRequest = {
        ...req,
        headers: { ...req.headers },
        body,
        text: () => (body ? new TextDecoder().decode(body) : ''),
        json: () => (body ? JSON.parse(new TextDecoder().decode(body)) : undefined),
      };
      requests.push(rec);
      const r = routes.find(
        (x) =>
          x.method === req.method.toUpperCase() &&
          (typeof x.url === 'string' ? req.url.includes(x.url) : x.url.test(req.url)),
      );
      let step: ScriptStep | undefined = r?.step;
      if (!step) step = queue.shift();
      if (!step) {
        if (options.inner) return options.inner.request(req);
        throw new Error(`recordingTransport: no scripted response for ${req.method} ${req.url}`);
      }
      const out = typeof step === 'function' ? await step(rec) : step;
      if (out instanceof Error) throw out;
      return toResponse(out);
    },
  };
  return t;
}
