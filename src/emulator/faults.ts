/** Scripted faults: matched by method and path, consumed in injection order, and their answers. */
import { baseHeaders, DOCS, JSON_TYPE } from './http.js';
import type { Budget } from './model.js';
import { rateLimitHeaders, secondaryLimitReply } from './rations.js';
import type { Fault, RequestLogEntry, ResponseRecord } from './traffic.js';

interface Entry {
  fault: Fault;
  skipped: number;
  applied: number;
}

function matches(f: Fault, method: string, path: string): boolean {
  if (f.method && f.method.toUpperCase() !== method) return false;
  if (f.path === undefined) return true;
  return typeof f.path === 'string' ? path.startsWith(f.path) : f.path.test(path);
}

/**
 * The faults a test injected, in injection order; each applies to the matching requests after `skip`,
 * `times` times.
 *
 * @example
 * const book = new FaultBook();
 * book.inject({ kind: 'status', status: 502, path: '/repos/o/r/git' });
 * book.take('GET', '/repos/o/r/git/ref/heads/main'); // the fault, then undefined
 */
export class FaultBook {
  private entries: Entry[] = [];

  inject(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new Error('inject: fault.times must be a positive integer');
    if (fault.skip !== undefined && (!Number.isInteger(fault.skip) || fault.skip < 0)) {
      throw new Error('inject: fault.skip must be a non-negative integer');
    }
    this.entries.push({ fault, skipped: 0, applied: 0 });
  }

  clear(): void {
    this.entries = [];
  }

  /** The fault to apply to this request, if any (its counters advance). */
  take(method: string, path: string): Fault | undefined {
    for (const e of this.entries) {
      if (!matches(e.fault, method, path)) continue;
      if (e.skipped < (e.fault.skip ?? 0)) {
        e.skipped++;
        continue;
      }
      e.applied++;
      if (e.applied >= (e.fault.times ?? 1)) this.entries = this.entries.filter((x) => x !== e);
      return e.fault;
    }
    return undefined;
  }
}

/**
 * The connection ends without an answer: a `reset` or `hang` fault, or a `drop-reply` after the
 * handler ran. A `TypeError`, like the one `fetch` rejects with on a network failure, so an in-page
 * client sees exactly what a browser shows; the node adapter destroys the socket instead.
 *
 * @example
 * if (err instanceof ConnectionDropped) req.socket.destroy();
 */
export class ConnectionDropped extends TypeError {
  constructor(readonly kind: 'reset' | 'hang' | 'drop-reply') {
    super(`Failed to fetch (emulated ${kind})`);
    this.name = 'ConnectionDropped';
  }
}

/** What a fault answers with, when it answers at all. */
interface FaultReply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** True when a test wrote the body (`status` faults with `body`, `malformed-json`). */
  injectedBody: boolean;
}

/** The request this fault answers, and where its answer is recorded. */
export interface FaultContext {
  budget: Budget;
  entry: RequestLogEntry;
  log: RequestLogEntry[];
  observe: (r: ResponseRecord) => void;
  signal: AbortSignal;
  closed: Promise<void>;
}

/**
 * Answer a request with a fault instead of the real handler (every kind but `drop-reply`, which the
 * handler applies after running the route). Fault answers cost no rate-limit budget. `reset` rejects
 * at once; `hang` rejects when the client gives up (`signal`) or the emulator stops (`closed`).
 *
 * @example
 * await answerFault({ kind: 'status', status: 502 }, ctx); // a 502 with GitHub's error body
 */
export async function answerFault(fault: Fault, ctx: FaultContext): Promise<Response> {
  switch (fault.kind) {
    case 'reset':
      ctx.log.push(ctx.entry);
      throw new ConnectionDropped('reset');
    case 'hang':
      ctx.log.push(ctx.entry);
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
        ctx.closed.then(resolve);
      });
      throw new ConnectionDropped('hang');
    case 'drop-reply':
      throw new Error(`fault ${fault.kind} is applied by the handler, after the route ran`);
    default:
      return send(fault, ctx, replyOf(fault));
  }
}

function replyOf(fault: Extract<Fault, { kind: 'status' | 'secondary-rate-limit' | 'malformed-json' }>): FaultReply {
  switch (fault.kind) {
    case 'status': {
      const body = fault.body ?? {
        message: fault.status >= 500 ? 'Server Error' : 'Injected fault',
        documentation_url: DOCS,
        status: String(fault.status),
      };
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      return { status: fault.status, headers: fault.headers ?? {}, text, injectedBody: fault.body !== undefined };
    }
    case 'secondary-rate-limit': {
      // The same answer the emulator's own secondary limits give (./rations.ts); headers come from send().
      const status = fault.status ?? 403;
      const { text } = secondaryLimitReply(status, 'general', { limit: 0, used: 0, reset: 0 }, fault.retryAfter);
      return { status, headers: { 'Retry-After': String(fault.retryAfter) }, text, injectedBody: false };
    }
    case 'malformed-json':
      return {
        status: 200,
        headers: {},
        text: '{"sha": "0000000000000000000000000000000000000000", "url": ',
        injectedBody: true,
      };
  }
}

/** Log, observe and build the fault's answer (with the caller's budget, uncharged). */
function send(fault: Fault, ctx: FaultContext, reply: FaultReply): Response {
  const { entry } = ctx;
  const payload = new TextEncoder().encode(reply.text);
  entry.status = reply.status;
  ctx.log.push(entry);
  const headers = {
    ...baseHeaders(),
    ...rateLimitHeaders(ctx.budget),
    'Content-Type': JSON_TYPE,
    'Content-Length': String(payload.length),
    ...reply.headers,
  };
  ctx.observe({
    method: entry.method,
    path: entry.path,
    status: reply.status,
    ...(entry.operation ? { operation: entry.operation } : {}),
    fault: fault.kind,
    injectedBody: reply.injectedBody,
    headers,
    ...(entry.method === 'HEAD' ? {} : { body: reply.text }),
  });
  return new Response(entry.method === 'HEAD' ? null : payload, { status: reply.status, headers });
}
