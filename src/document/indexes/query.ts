/**
 * An index query (issue 28, item 3) and its cursor. Validation runs before any I/O and names the
 * field and what is allowed (`InvalidConfig`). A cursor is an opaque token the caller got from a
 * previous page; it comes back as untrusted input, so it is decoded, shape-checked and tied to the
 * query it was issued for.
 */

import { toBase64 } from '../../core/bytes.js';
import { InvalidConfig } from '../../core/errors.js';
import {
  array,
  at,
  integer,
  isRecord,
  onlyKeys,
  record,
  fail as refuse,
  required,
  ShapeProblem,
  string,
} from './check.js';
import type { Scalar, Stored } from './values.js';
import { isStored } from './values.js';

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

/**
 * A number a clause may hold: within ±(2^53 − 1), where every integer is exact. A larger one is already a
 * rounded double (9007199254740993 parses as …992) and would silently match a neighbour, so it is refused.
 */
const isExactNumber = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER;
const isScalar = (v: unknown): v is Scalar =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || isExactNumber(v);
const NUMBER_RULE = 'a number within ±(2^53 − 1) or a string';
const isBound = (v: unknown) => typeof v === 'string' || isExactNumber(v);
const SCALAR_RULE = 'a JSON scalar (null, boolean, number within ±(2^53 − 1), or string)';

const VALUE_RULES: Record<Operator, [string, (v: unknown) => boolean]> = {
  '=': [SCALAR_RULE, isScalar],
  contains: [SCALAR_RULE, isScalar],
  in: [
    `an array of 1 to ${MAX_IN_VALUES} JSON scalars`,
    (v) => Array.isArray(v) && v.length > 0 && v.length <= MAX_IN_VALUES && v.every(isScalar),
  ],
  '<': [NUMBER_RULE, isBound],
  '<=': [NUMBER_RULE, isBound],
  '>': [NUMBER_RULE, isBound],
  '>=': [NUMBER_RULE, isBound],
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

const QUERY_KEYS = ['namespace', 'type', 'where', 'orderBy', 'limit', 'cursor', 'fields'];
const SHAPE_RULE = 'namespace, type, where, orderBy { field, direction: asc|desc }, limit 1..10000, cursor, fields';

/** A query whose shape is checked but whose fields, operators and values are not yet. */
interface Shaped extends Omit<IndexQuery, 'where' | 'orderBy' | 'fields'> {
  where?: { field: unknown; op: unknown; value: unknown }[];
  orderBy?: { field: unknown; direction?: 'asc' | 'desc' };
  fields?: unknown[];
}

/** One clause's shape: `{ field, op, value }`, each given (what each may be is checked in validateQuery). */
function clauseShape(value: unknown, field: string): NonNullable<Shaped['where']>[number] {
  const o = record(value, field);
  for (const key of ['field', 'op', 'value']) required(o, field, key);
  onlyKeys(o, field, ['field', 'op', 'value']);
  return { field: o.field, op: o.op, value: o.value };
}

function orderByShape(value: unknown): NonNullable<Shaped['orderBy']> {
  const o = record(value, 'orderBy');
  required(o, 'orderBy', 'field');
  const { direction } = o;
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc') {
    refuse('orderBy.direction', 'must be "asc" or "desc"');
  }
  onlyKeys(o, 'orderBy', ['field', 'direction']);
  return direction === undefined ? { field: o.field } : { field: o.field, direction };
}

/** The query's shape, in a fresh object (optional keys given as undefined are left out). */
function shapeOf(input: unknown): Shaped {
  const o = record(input, '');
  const q: Shaped = { namespace: string(o.namespace, 'namespace', 1), type: string(o.type, 'type', 1) };
  if (o.where !== undefined) q.where = array(o.where, 'where').map((w, i) => clauseShape(w, at('where', i)));
  if (o.orderBy !== undefined) q.orderBy = orderByShape(o.orderBy);
  if (o.limit !== undefined) q.limit = integer(o.limit, 'limit', 1, MAX_LIMIT);
  if (o.cursor !== undefined) q.cursor = string(o.cursor, 'cursor', 0, MAX_CURSOR_CHARS);
  if (o.fields !== undefined) q.fields = [...array(o.fields, 'fields')];
  onlyKeys(o, '', QUERY_KEYS);
  return q;
}

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
  let q: Shaped;
  try {
    q = shapeOf(input);
  } catch (e) {
    if (!(e instanceof ShapeProblem)) throw e;
    const what = e.unknownKeys ? `has unknown key(s) ${e.unknownKeys.join(', ')}` : `is invalid: ${e.problem}`;
    return fail(e.field || '(query)', what, SHAPE_RULE);
  }
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
  return toBase64(new TextEncoder().encode(json)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

interface CursorFields {
  v: 1;
  q: string;
  s: Stored;
  i: string;
}

/** The decoded token is docdb's `{ v: 1, q, s, i }` and nothing else (it comes back from the caller). */
function isCursorFields(c: unknown): c is CursorFields {
  return (
    isRecord(c) &&
    c.v === 1 &&
    typeof c.q === 'string' &&
    isStored(c.s) &&
    typeof c.i === 'string' &&
    c.i !== '' &&
    Object.keys(c).every((k) => k === 'v' || k === 'q' || k === 's' || k === 'i')
  );
}

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
  if (!isCursorFields(parsed)) return bad('is not a cursor docdb issued');
  if (parsed.q !== fingerprint(q))
    return bad('was issued for another query (namespace, type, where or orderBy differ)');
  return { sort: parsed.s, id: parsed.i };
}
