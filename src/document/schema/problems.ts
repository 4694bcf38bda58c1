/**
 * Turns @cfworker/json-schema's output units into SchemaProblems: the pointer inside the data, the keyword
 * broken, what the SCHEMA expected and the JSON type found — never a value of the document (the library's
 * own `error` text quotes values, so it is never read here).
 */
import type { OutputUnit } from '@cfworker/json-schema';

export interface SchemaProblem {
  /** JSON pointer inside the data ('' = the data itself, '/stars', '/labels/0'); callers prefix '/data'. */
  pointer: string;
  /** The JSON Schema keyword broken: 'type' | 'required' | 'minimum' | 'enum' | 'pattern' | 'additionalProperties' | … */
  rule: string;
  /** Short, from the schema only (e.g. 'integer', 'one of 3 values', '>= 0'); never from the document. */
  expected?: string;
  /** JSON type of the value found, or 'absent' for a missing required property. */
  found: string;
}

/** Keywords whose failure the library reports together with the failures inside them (the inner ones are kept). */
const WRAPPERS = new Set([
  '$ref',
  'allOf',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'unevaluatedItems',
  'dependentSchemas',
  'if',
]);
/** Keywords reported as one problem: what failed inside their subschemas is not a problem of the data. */
const SUMMARIZED = new Set(['anyOf', 'oneOf', 'not', 'contains', 'propertyNames']);
/** Keywords followed by a name (a property, a definition), not a keyword. */
const NAMED = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas', 'dependentRequired']);

/** Decodes '#/a~1b/0' (URI-encoded JSON pointer, as the library writes it) into segments. */
export function segments(location: string): string[] {
  const p = location.slice(1);
  if (p === '') return [];
  return p
    .slice(1)
    .split('/')
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
}

const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerOf = (segs: readonly string[]) => segs.map((s) => `/${escapeKey(s)}`).join('');

/** Whether a keyword location passes through a summarized keyword (and so is part of its one problem). */
function insideSummarized(keywordSegs: readonly string[]): boolean {
  for (let i = 0; i < keywordSegs.length - 1; i++) {
    const s = keywordSegs[i]!;
    if (NAMED.has(s)) {
      i++; // skip the name
      continue;
    }
    if (SUMMARIZED.has(s)) return true;
  }
  return false;
}

/** The JSON type of a value, as JSON Schema names it. */
export function jsonType(v: unknown): string {
  if (v === undefined) return 'absent';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function valueAt(data: unknown, segs: readonly string[]): unknown {
  let v = data;
  for (const s of segs) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, s)) return undefined;
    v = (v as Record<string, unknown>)[s];
  }
  return v;
}

export interface ProblemContext {
  data: unknown;
  /** The schema value at a keyword location (following `$ref`s), or undefined. */
  schemaAt(keywordSegs: readonly string[]): unknown;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What the schema expected, said from the keyword's value in the schema. */
function expectedFor(rule: string, value: unknown): string | undefined {
  const n = typeof value === 'number' ? value : undefined;
  switch (rule) {
    case 'type':
      return Array.isArray(value) ? value.join(' or ') : String(value);
    case 'minimum':
      return `>= ${n}`;
    case 'maximum':
      return `<= ${n}`;
    case 'exclusiveMinimum':
      return `> ${n}`;
    case 'exclusiveMaximum':
      return `< ${n}`;
    case 'multipleOf':
      return `a multiple of ${n}`;
    case 'minLength':
      return `at least ${plural(n ?? 0, 'character')}`;
    case 'maxLength':
      return `at most ${plural(n ?? 0, 'character')}`;
    case 'minItems':
    case 'minContains':
      return `at least ${plural(n ?? 0, 'item')}`;
    case 'maxItems':
    case 'maxContains':
      return `at most ${plural(n ?? 0, 'item')}`;
    case 'minProperties':
      return `at least ${plural(n ?? 0, 'property')}`.replace('propertys', 'properties');
    case 'maxProperties':
      return `at most ${plural(n ?? 0, 'property')}`.replace('propertys', 'properties');
    case 'enum':
      return Array.isArray(value) ? `one of ${plural(value.length, 'value')}` : undefined;
    case 'const':
      return 'the constant value';
    case 'pattern':
      return typeof value === 'string' ? `matching ${value}` : undefined;
    case 'format':
      return typeof value === 'string' ? `format ${value}` : undefined;
    case 'uniqueItems':
      return 'unique items';
    case 'anyOf':
      return Array.isArray(value) ? `any of ${plural(value.length, 'schema')}` : undefined;
    case 'oneOf':
      return Array.isArray(value) ? `exactly one of ${plural(value.length, 'schema')}` : undefined;
    case 'not':
      return 'not matching its schema';
    case 'contains':
      return 'an item matching its schema';
    case 'propertyNames':
      return 'property names matching its schema';
    default:
      return undefined;
  }
}

/**
 * The keyword a `false` schema stands in (additionalProperties: false → 'additionalProperties'). The library
 * gives a `false` unit no keyword location of its own; it follows the unit of the keyword that applied it.
 */
function falseRule(before: OutputUnit | undefined): { rule: string; expected: string } {
  const k = before?.keyword;
  if (k === 'additionalProperties') return { rule: k, expected: 'no other properties' };
  if (k === 'unevaluatedProperties') return { rule: k, expected: 'no unevaluated properties' };
  if (k === 'items' || k === 'unevaluatedItems') return { rule: k, expected: 'no more items' };
  return { rule: 'false', expected: 'nothing (false schema)' };
}

/** One problem per missing property of a `required` / `dependentRequired` failure. */
function missing(
  unit: OutputUnit,
  ctx: ProblemContext,
  instanceSegs: string[],
  keywordSegs: string[],
): SchemaProblem[] {
  const obj = valueAt(ctx.data, instanceSegs) as Record<string, unknown>;
  const has = (k: string) => typeof obj === 'object' && obj !== null && Object.hasOwn(obj, k);
  const schemaSegs = keywordSegs.slice(0, -1);
  let names: string[] = [];
  if (unit.keyword === 'required') {
    names = (ctx.schemaAt([...schemaSegs, 'required']) as string[] | undefined) ?? [];
  } else {
    const deps = (ctx.schemaAt([...schemaSegs, 'dependentRequired']) ?? {}) as Record<string, string[]>;
    names = Object.keys(deps)
      .filter(has)
      .flatMap((k) => deps[k]!);
  }
  return [...new Set(names)]
    .filter((k) => !has(k))
    .map((k) => ({
      pointer: pointerOf([...instanceSegs, k]),
      rule: unit.keyword,
      expected: 'present',
      found: 'absent',
    }));
}

/**
 * The problems of one failed validation, in the library's order, without duplicates.
 * @example
 * toProblems([{ keyword: 'type', keywordLocation: '#/properties/stars/type', instanceLocation: '#/stars', error: '…' }], ctx);
 * // [{ pointer: '/stars', rule: 'type', expected: 'integer', found: 'string' }]
 */
export function toProblems(units: readonly OutputUnit[], ctx: ProblemContext): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  units.forEach((unit, i) => {
    if (WRAPPERS.has(unit.keyword)) return;
    const before = units[i - 1];
    // A `false` unit sits where the unit before it points (its own location is the instance's).
    const keywordSegs =
      unit.keyword === 'false'
        ? [...segments(before?.keywordLocation ?? '#'), 'false']
        : segments(unit.keywordLocation);
    if (insideSummarized(keywordSegs)) return;
    const instanceSegs = segments(unit.instanceLocation);
    let found: SchemaProblem[] = [];
    if (unit.keyword === 'required' || unit.keyword === 'dependentRequired') {
      found = missing(unit, ctx, instanceSegs, keywordSegs);
    } else {
      const fr = unit.keyword === 'false' ? falseRule(before) : undefined;
      const rule = fr?.rule ?? unit.keyword;
      const expected = fr?.expected ?? expectedFor(rule, ctx.schemaAt(keywordSegs));
      const type = jsonType(valueAt(ctx.data, instanceSegs));
      found.push({
        pointer: pointerOf(instanceSegs),
        rule,
        ...(expected === undefined ? {} : { expected }),
        found: type,
      });
    }
    for (const p of found) {
      const id = `${p.pointer}\u0000${p.rule}\u0000${p.expected}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(p);
    }
  });
  return out;
}
