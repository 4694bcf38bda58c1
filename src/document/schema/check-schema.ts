/**
 * Checks a per-type schema before it is compiled: the listed JSON Schema 2020-12 vocabulary only, each
 * keyword's value of the right shape, within the caps of limits.ts, `$ref` only to `#…` inside the schema
 * (nothing is ever fetched), no `$ref` loop that never moves into the data, and safe `pattern`s.
 * Every refusal is an `InvalidConfig` naming the JSON pointer inside the schema and what is allowed.
 */
import { InvalidConfig } from '../../core/errors.js';
import {
  ALLOWED_KEYWORDS,
  ANNOTATION_KEYWORDS,
  COUNT_KEYWORDS,
  DRAFT_2020_12,
  FORMATS,
  MAX_SCHEMA_BYTES,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_KEYWORDS,
  NUMBER_KEYWORDS,
  SCHEMA_ARRAY_KEYWORDS,
  SCHEMA_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  TYPES,
} from './limits.js';
import { patternRisk } from './pattern-guard.js';

/** Keywords applied to the same data value as their schema (a `$ref` loop through only these never ends). */
const SAME_VALUE = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas']);
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

interface Walk {
  field: string;
  /** Every schema's pointer → the pointers of the schemas applied to the same value (and its `$ref`s). */
  sameValue: Map<string, string[]>;
  refs: { at: string; ref: string }[];
  anchors: Map<string, string>;
}

const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(w: Pick<Walk, 'field'>, at: string, message: string): never {
  throw new InvalidConfig(w.field, `${w.field} at "${at || '/'}": ${message}`, { pointer: at });
}

/**
 * Refuses a schema that is not plain JSON within the caps (depth, keywords, bytes) — before anything
 * recurses into it, so a 100,000-deep or cyclic value fails fast instead of overflowing the stack.
 */
function checkShape(value: unknown, field: string): void {
  let keywords = 0;
  const visit = (v: unknown, at: string, depth: number): void => {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) fail({ field }, at, 'numbers must be finite');
      return;
    }
    if (
      typeof v !== 'object' ||
      (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null)
    ) {
      fail({ field }, at, 'is not JSON (only objects, arrays, strings, finite numbers, booleans and null)');
    }
    if (depth >= MAX_SCHEMA_DEPTH) fail({ field }, at, `nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) visit(x, `${at}/${i}`, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v as object)) {
      if (++keywords > MAX_SCHEMA_KEYWORDS) fail({ field }, at, `has more than ${MAX_SCHEMA_KEYWORDS} keys in all`);
      visit(x, `${at}/${escapeKey(k)}`, depth + 1);
    }
  };
  visit(value, '', 0);
  const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
  if (bytes > MAX_SCHEMA_BYTES)
    fail({ field }, '', `is ${bytes} bytes as JSON; at most ${MAX_SCHEMA_BYTES} are accepted`);
}

function checkRisk(w: Walk, at: string, pattern: unknown): void {
  if (typeof pattern !== 'string') fail(w, at, 'must be a string (a regular expression)');
  const risk = patternRisk(pattern);
  if (risk) fail(w, at, `pattern ${risk}`);
}

const nonNegInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const uniqueStrings = (v: unknown) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') && new Set(v).size === v.length;

/** One keyword's value (not its subschemas: walkSchema descends into those). */
function checkKeyword(w: Walk, at: string, key: string, value: Json, root: boolean): void {
  const here = `${at}/${escapeKey(key)}`;
  if ((COUNT_KEYWORDS as readonly string[]).includes(key) && !nonNegInt(value)) {
    fail(w, here, 'must be a non-negative integer');
  }
  if ((NUMBER_KEYWORDS as readonly string[]).includes(key)) {
    if (typeof value !== 'number') fail(w, here, 'must be a number');
    if (key === 'multipleOf' && value <= 0) fail(w, here, 'must be greater than 0');
  }
  if ((ANNOTATION_KEYWORDS as readonly string[]).includes(key)) {
    if (['title', 'description', '$comment'].includes(key) && typeof value !== 'string')
      fail(w, here, 'must be a string');
    if (['deprecated', 'readOnly', 'writeOnly'].includes(key) && typeof value !== 'boolean')
      fail(w, here, 'must be true or false');
    if (key === 'examples' && !Array.isArray(value)) fail(w, here, 'must be an array');
  }
  switch (key) {
    case '$schema':
      if (!root || value !== DRAFT_2020_12) fail(w, here, `only "${DRAFT_2020_12}" is accepted, on the root schema`);
      break;
    case '$id':
      if (!root || typeof value !== 'string') fail(w, here, 'is accepted only on the root schema, as a string');
      break;
    case '$anchor':
      if (typeof value !== 'string' || !ANCHOR.test(value))
        fail(w, here, 'must be a name like "node" (letters, digits, -._)');
      if (w.anchors.has(value)) fail(w, here, `anchor "${value}" is declared twice`);
      w.anchors.set(value, at);
      break;
    case '$ref':
      if (typeof value !== 'string' || !value.startsWith('#')) {
        fail(
          w,
          here,
          'only references inside this schema are accepted ("#", "#/$defs/name" or "#anchor"); nothing is fetched',
        );
      }
      w.refs.push({ at, ref: value });
      break;
    case 'type': {
      const ok = (t: unknown) => (TYPES as readonly unknown[]).includes(t);
      const list = Array.isArray(value) ? value : [value];
      if (list.length === 0 || !list.every(ok) || new Set(list).size !== list.length) {
        fail(w, here, `must be one of ${TYPES.join(', ')} or an array of distinct ones`);
      }
      break;
    }
    case 'enum':
      if (!Array.isArray(value) || value.length === 0) fail(w, here, 'must be a non-empty array');
      break;
    case 'required':
      if (!uniqueStrings(value)) fail(w, here, 'must be an array of distinct property names');
      break;
    case 'dependentRequired':
      if (!isObj(value)) fail(w, here, 'must be an object of arrays of property names');
      for (const [k, v] of Object.entries(value)) {
        if (!uniqueStrings(v)) fail(w, `${here}/${escapeKey(k)}`, 'must be an array of distinct property names');
      }
      break;
    case 'pattern':
      checkRisk(w, here, value);
      break;
    case 'format':
      if (!(FORMATS as readonly unknown[]).includes(value)) fail(w, here, `must be one of ${FORMATS.join(', ')}`);
      break;
    case 'uniqueItems':
      if (typeof value !== 'boolean') fail(w, here, 'must be true or false');
      break;
  }
}

/** Walks one schema (an object or a boolean) at `at`, recording its same-value edges. */
function walkSchema(w: Walk, schema: Json, at: string): void {
  if (typeof schema === 'boolean') return;
  if (!isObj(schema)) fail(w, at, 'a schema must be an object or a boolean');
  const same: string[] = [];
  w.sameValue.set(at, same);
  for (const [key, value] of Object.entries(schema)) {
    if (!ALLOWED_KEYWORDS.has(key)) {
      fail(
        w,
        `${at}/${escapeKey(key)}`,
        `unknown keyword "${key}"; allowed: ${[...ALLOWED_KEYWORDS].sort().join(', ')}`,
      );
    }
    checkKeyword(w, at, key, value, at === '');
    const here = `${at}/${escapeKey(key)}`;
    if ((SCHEMA_KEYWORDS as readonly string[]).includes(key)) {
      if (key === 'items' && Array.isArray(value))
        fail(w, here, 'must be a schema (2020-12: use prefixItems for a tuple)');
      walkSchema(w, value, here);
      if (SAME_VALUE.has(key)) same.push(here);
    } else if ((SCHEMA_ARRAY_KEYWORDS as readonly string[]).includes(key)) {
      if (!Array.isArray(value) || value.length === 0) fail(w, here, 'must be a non-empty array of schemas');
      value.forEach((s, i) => {
        walkSchema(w, s, `${here}/${i}`);
        if (SAME_VALUE.has(key)) same.push(`${here}/${i}`);
      });
    } else if ((SCHEMA_MAP_KEYWORDS as readonly string[]).includes(key)) {
      if (!isObj(value)) fail(w, here, 'must be an object of schemas');
      for (const [name, s] of Object.entries(value)) {
        if (key === 'patternProperties') checkRisk(w, `${here}/${escapeKey(name)}`, name);
        walkSchema(w, s, `${here}/${escapeKey(name)}`);
        if (SAME_VALUE.has(key)) same.push(`${here}/${escapeKey(name)}`);
      }
    }
  }
}

/** The pointer a `#…` reference names, or undefined when it names no schema in this one. */
function resolveRef(w: Walk, ref: string): string | undefined {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  const target = fragment === '' || fragment.startsWith('/') ? fragment : w.anchors.get(fragment);
  return target !== undefined && w.sameValue.has(target) ? target : undefined;
}

/** Refuses a `$ref` loop that stays on one data value (it would recurse until the stack overflows). */
function checkRefs(w: Walk): void {
  for (const { at, ref } of w.refs) {
    const target = resolveRef(w, ref);
    if (target === undefined) fail(w, `${at}/$ref`, `"${ref}" does not point at a schema inside this schema`);
    w.sameValue.get(at)!.push(target);
  }
  const state = new Map<string, 'open' | 'done'>();
  const visit = (p: string): void => {
    state.set(p, 'open');
    for (const next of w.sameValue.get(p) ?? []) {
      const s = state.get(next);
      if (s === 'open') fail(w, p, `$ref loop back to "${next || '/'}" that never moves into the data`);
      if (s === undefined) visit(next);
    }
    state.set(p, 'done');
  };
  for (const p of w.sameValue.keys()) if (!state.has(p)) visit(p);
}

/**
 * Refuses anything but a JSON Schema 2020-12 the validator accepts (see docs/schemas-validator.md).
 * @example
 * checkSchema({ type: 'object', properties: { stars: { type: 'integer', minimum: 0 } } }, 'schema'); // a $ref resolver
 * checkSchema({ pattern: '^(a+)+$' }, 'schema'); // throws InvalidConfig naming "/pattern"
 */
export function checkSchema(schema: unknown, field: string): RefResolver {
  checkShape(schema, field);
  const w: Walk = { field, sameValue: new Map(), refs: [], anchors: new Map() };
  walkSchema(w, schema as Json, '');
  checkRefs(w);
  return (ref) => resolveRef(w, ref);
}

/** The JSON pointer inside the schema a checked `$ref` names. */
export type RefResolver = (ref: string) => string | undefined;
