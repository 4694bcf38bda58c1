/** Scripted faults: matched by method and path, consumed in injection order, and their answers. */
import type { ServerResponse } from 'node:http';
import { rateLimitHeaders } from './auth.js';
import { baseHeaders, DOCS, JSON_TYPE } from './http.js';
import type { Budget } from './state.js';
import type { Fault, RequestLogEntry, ResponseRecord } from './types.js';

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
 * Answer a request with a fault instead of the real handler (every kind but `drop-reply`, which the
 * server applies after running the handler). Fault answers cost no rate-limit budget.
 */
export function applyFault(
  fault: Fault,
  res: ServerResponse,
  ctx: {
    budget: Budget;
    entry: RequestLogEntry;
    log: RequestLogEntry[];
    hanging: Set<ServerResponse>;
    observe: (r: ResponseRecord) => void;
  },
): void {
  const { budget, entry } = ctx;
  const send = (status: number, extra: Record<string, string>, payload: Buffer, injectedBody: boolean) => {
    entry.status = status;
    ctx.log.push(entry);
    const headers = {
      ...baseHeaders(),
      ...rateLimitHeaders(budget),
      'Content-Type': JSON_TYPE,
      'Content-Length': String(payload.length),
      ...extra,
    };
    ctx.observe({
      method: entry.method,
      path: entry.path,
      status,
      ...(entry.operation ? { operation: entry.operation } : {}),
      fault: fault.kind,
      injectedBody,
      headers,
      ...(entry.method === 'HEAD' ? {} : { body: payload.toString('utf8') }),
    });
    res.writeHead(status, headers);
    res.end(entry.method === 'HEAD' ? undefined : payload);
  };
  switch (fault.kind) {
    case 'status': {
      const body = fault.body ?? {
        message: fault.status >= 500 ? 'Server Error' : 'Injected fault',
        documentation_url: DOCS,
        status: String(fault.status),
      };
      send(
        fault.status,
        fault.headers ?? {},
        Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
        fault.body !== undefined,
      );
      return;
    }
    case 'secondary-rate-limit': {
      const status = fault.status ?? 403;
      const body = {
        message:
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: String(status),
      };
      send(status, { 'Retry-After': String(fault.retryAfter) }, Buffer.from(JSON.stringify(body)), false);
      return;
    }
    case 'malformed-json':
      send(200, {}, Buffer.from('{"sha": "0000000000000000000000000000000000000000", "url": '), true);
      return;
    case 'reset':
      ctx.log.push(entry);
      res.socket?.destroy();
      return;
    case 'hang':
      ctx.log.push(entry);
      ctx.hanging.add(res);
      res.on('close', () => ctx.hanging.delete(res));
      return;
    default:
      return;
  }
}
