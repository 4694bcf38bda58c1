/**
 * An index query (issue 28, item 3) and its cursor. Validation runs before any I/O and names the
 * field and what is allowed (`InvalidConfig`). A cursor is an opaque token the caller got from a
 * previous page; it comes back as untrusted input, so it is decoded, shape-checked and tied to the
 * query it was issued for.
 */
import { z } from 'zod';
import { InvalidConfig } from '../../core/errors.js';
import { isStored } from './rows.js';
import type { Scalar, Stored } from './values.js';

export const OPERATORS = ['=', 'in', '<', '<=', '>', '>=', 'exists', 'contains'] as const;
export type Operator = (typeof OPERATORS)[number];

export interface WhereClause {
  field: string;
  op: Operator;
  value: unknown;
}

export interface IndexQuery {
  namespace: string;
  type: string;
  where?: WhereClause[];
  orderBy?: { field: string; direction?: 'asc' | 'desc' };
  limit?: number;
  cursor?: string;
  /** Declared fields to return in each row (default: all declared fields). */
  fields?: string[];
}

/** Most values of one `in`. */
export const MAX_IN_VALUES = 100;
/** Largest `limit`. */
export const MAX_LIMIT = 10_000;
/** Longest cursor token accepted, in characters. */
export const MAX_CURSOR_CHARS = 4096;

const isScalar = (v: unknown): v is Scalar =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

const VALUE_RULES: Record<Operator, [string, (v: unknown) => boolean]> = {
  '=': ['a JSON scalar (null, boolean, finite number or string)', isScalar],
  contains: ['a JSON scalar (null, boolean, finite number or string)', isScalar],
  in: [
    `an array of 1 to ${MAX_IN_VALUES} JSON scalars`,
    (v) => Array.isArray(v) && v.length > 0 && v.length <= MAX_IN_VALUES && v.every(isScalar),
  ],
  '<': ['a finite number or a string', (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))],
  '<=': ['a finite number or a string', (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))],
  '>': ['a finite number or a string', (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))],
  '>=': ['a finite number or a string', (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))],
  exists: ['true or false', (v) => typeof v === 'boolean'],
};

const FIELD_RULE = 'must be "id" or a dotted path into data, such as "data.language"';
const isFieldPath = (f: unknown): f is string =>
  typeof f === 'string' &&
  (f === 'id' ||
    (f.startsWith('data.') &&
      f
        .slice(5)
        .split('.')
        .every((s) => s !== '')));

function fail(field: string, message: string, allowed: string): never {
  throw new InvalidConfig(field, `query ${field} ${message}; allowed: ${allowed}`, { allowed });
}

const shape = z.strictObject({
  namespace: z.string().min(1),
  type: z.string().min(1),
  where: z.array(z.strictObject({ field: z.unknown(), op: z.unknown(), value: z.unknown() })).optional(),
  orderBy: z.strictObject({ field: z.unknown(), direction: z.enum(['asc', 'desc']).optional() }).optional(),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional(),
  cursor: z.string().max(MAX_CURSOR_CHARS).optional(),
  fields: z.array(z.unknown()).optional(),
});

/**
 * Check a query (before any I/O). Throws `InvalidConfig` naming the field (`where[1].op`) and what is
 * allowed.
 *
 * @example
 * validateQuery({ namespace: 'g', type: 'repo', where: [{ field: 'data.stars', op: '>=', value: 10 }] });
 * validateQuery({ namespace: 'g', type: 'repo', where: [{ field: 'data.stars', op: '~', value: 1 }] });
 * // throws InvalidConfig: query where[0].op is "~"; allowed: =, in, <, <=, >, >=, exists, contains
 */
export function validateQuery(input: unknown): IndexQuery {
  const parsed = shape.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    const keys =
      issue.code === 'unrecognized_keys'
        ? `has unknown key(s) ${issue.keys.join(', ')}`
        : `is invalid: ${issue.message}`;
    fail(
      at || '(query)',
      keys,
      'namespace, type, where, orderBy { field, direction: asc|desc }, limit 1..10000, cursor, fields',
    );
  }
  const q = parsed.data;
  (q.where ?? []).forEach((w, i) => {
    if (!isFieldPath(w.field)) fail(`where[${i}].field`, `is ${JSON.stringify(w.field)}`, FIELD_RULE);
    if (!OPERATORS.includes(w.op as Operator))
      fail(`where[${i}].op`, `is ${JSON.stringify(w.op)}`, OPERATORS.join(', '));
    const [text, ok] = VALUE_RULES[w.op as Operator];
    if (!ok(w.value))
      fail(`where[${i}].value`, `for "${String(w.op)}" is ${JSON.stringify(w.value) ?? 'undefined'}`, text);
  });
  if (q.orderBy && !isFieldPath(q.orderBy.field))
    fail('orderBy.field', `is ${JSON.stringify(q.orderBy.field)}`, FIELD_RULE);
  (q.fields ?? []).forEach((f, i) => {
    if (!isFieldPath(f)) fail(`fields[${i}]`, `is ${JSON.stringify(f)}`, FIELD_RULE);
  });
  return q as IndexQuery;
}

/** A short fingerprint of what a cursor depends on (FNV-1a; a consistency check, not a secret). */
function fingerprint(q: IndexQuery): string {
  const text = JSON.stringify([
    q.namespace,
    q.type,
    q.where ?? [],
    q.orderBy?.field ?? null,
    q.orderBy?.direction ?? 'asc',
  ]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** Where a page ended: the last row's sort value (exact) and id. */
export interface CursorPosition {
  sort: Stored;
  id: string;
}

/** The opaque token for the page after `pos` of `q`. */
export function encodeCursor(q: IndexQuery, pos: CursorPosition): string {
  const json = JSON.stringify({ v: 1, q: fingerprint(q), s: pos.sort, i: pos.id });
  return btoa(String.fromCharCode(...new TextEncoder().encode(json)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

const cursorSchema = z.strictObject({
  v: z.literal(1),
  q: z.string(),
  s: z.custom<Stored>(isStored),
  i: z.string().min(1),
});

/**
 * Decode a cursor given back by the caller (untrusted). Throws `InvalidConfig` for a token that is not
 * one docdb issued, or was issued for another query.
 *
 * @example
 * decodeCursor(query, 'not-a-cursor'); // throws InvalidConfig: query cursor is not a cursor docdb issued …
 */
export function decodeCursor(q: IndexQuery, token: string): CursorPosition {
  const bad = (why: string): never =>
    fail('cursor', why, 'the cursor returned with the previous page of this same query');
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]*$/.test(token)) throw new Error('not base64url');
    const bin = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  } catch {
    return bad('is not a cursor docdb issued');
  }
  const c = cursorSchema.safeParse(parsed);
  if (!c.success) return bad('is not a cursor docdb issued');
  if (c.data.q !== fingerprint(q))
    return bad('was issued for another query (namespace, type, where or orderBy differ)');
  return { sort: c.data.s, id: c.data.i };
}
