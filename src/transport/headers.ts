/**
 * The one parser for each GitHub response header docdb reads across layers (store, projection sources,
 * Action): `Link` pagination and the `x-ratelimit-*` family.
 * Docs: https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api and
 * https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api
 */
import type { RateLimit } from '../core/refstore.js';

/** Header lookup over any shape a layer has: a plain record (any casing), `Headers`, or a getter. */
export type HeaderSource =
  | Record<string, unknown>
  | { get(name: string): string | null }
  | ((name: string) => string | undefined)
  | undefined
  | null;

function getter(headers: HeaderSource): (name: string) => string | undefined {
  if (!headers) return () => undefined;
  if (typeof headers === 'function') return headers;
  // `Headers` (fetch) and similar: case-insensitive `get`. A record never has a function-valued `get`.
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const h = headers as { get(name: string): string | null };
    return (n) => h.get(n) ?? undefined;
  }
  const rec = headers as Record<string, unknown>;
  let lower: Map<string, unknown> | undefined;
  return (n) => {
    if (n in rec) {
      const v = rec[n];
      return v === undefined || v === null ? undefined : String(v);
    }
    lower ??= new Map(Object.entries(rec).map(([k, v]) => [k.toLowerCase(), v]));
    const v = lower.get(n);
    return v === undefined || v === null ? undefined : String(v);
  };
}

/**
 * Parse a `Link` header into rel → URL (each rel of a multi-rel link, e.g. `rel="next last"`, is listed).
 *
 * @example
 * parseLinkHeader('<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last"')
 * // { next: 'https://api.github.com/x?page=2', last: 'https://api.github.com/x?page=5' }
 */
export function parseLinkHeader(link: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof link !== 'string') return out;
  for (const part of link.split(',')) {
    const m = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (!m) continue;
    const rel = /\brel\s*=\s*(?:"([^"]*)"|([^\s;"]+))/.exec(m[2] as string);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).filter(Boolean);
    for (const r of rels) if (!(r in out)) out[r] = m[1] as string;
  }
  return out;
}

/**
 * The `rel="next"` URL of a `Link` header, or undefined.
 *
 * @example
 * nextLink('<https://api.github.com/x?page=2>; rel="next"') // 'https://api.github.com/x?page=2'
 */
export function nextLink(link: unknown): string | undefined {
  return parseLinkHeader(link).next;
}

/**
 * The `x-ratelimit-*` headers of a response, or undefined when `x-ratelimit-remaining` is absent or not a
 * number (junk must not read as "none left": callers wait or warn on it). Other missing or non-numeric
 * fields read as 0; `resource` defaults to `core`.
 *
 * @example
 * parseRateLimit({ 'x-ratelimit-remaining': '4999', 'x-ratelimit-limit': '5000' })
 * // { limit: 5000, remaining: 4999, reset: 0, used: 0, resource: 'core' }
 */
export function parseRateLimit(headers: HeaderSource): RateLimit | undefined {
  const get = getter(headers);
  const remaining = numeric(get('x-ratelimit-remaining'));
  if (remaining === undefined) return undefined;
  const num = (v: string | undefined) => numeric(v) ?? 0;
  return {
    limit: num(get('x-ratelimit-limit')),
    remaining,
    reset: num(get('x-ratelimit-reset')),
    used: num(get('x-ratelimit-used')),
    resource: get('x-ratelimit-resource') ?? 'core',
  };
}

/** A header's number, or undefined when absent, empty or not a finite number. */
function numeric(v: string | undefined): number | undefined {
  const n = v === undefined || v.trim() === '' ? Number.NaN : Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Seconds to wait from a `Retry-After` header value (delta-seconds or an HTTP date), or undefined.
 *
 * @example
 * parseRetryAfter('120'); // 120
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : Math.max(0, Math.ceil((t - now) / 1000));
}
