/**
 * A fast yes/no check for the common case — a valid document against a schema of plain keywords — so a
 * 10,000-document write does not pay the library's general interpreter per document. It is compiled into
 * closures (no `new Function`: the viewer's Content-Security-Policy stays without `unsafe-eval`) and uses the
 * library's own helpers (`deepCompareStrict`, `ucs2length`, `format`), so its verdict is the library's
 * (a property test compares them). It only says "valid": when it says no, or when the schema uses a keyword
 * outside {@link FAST_KEYWORDS}, the library validates and reports the problems.
 */
import { deepCompareStrict, format, ucs2length } from '@cfworker/json-schema';
import type { RefResolver } from './check-schema.js';
import { ANNOTATION_KEYWORDS } from './limits.js';

type Check = (v: unknown) => boolean;
type Obj = Record<string, unknown>;

/** Keywords the fast path evaluates itself (annotations are ignored); any other keyword → no fast path. */
const FAST_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'minProperties',
  'maxProperties',
  '$ref',
  '$defs',
  '$schema',
  '$id',
  '$anchor',
  ...ANNOTATION_KEYWORDS,
]);

class NotFast extends Error {}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOk(t: string, v: unknown): boolean {
  switch (t) {
    case 'integer':
      return typeof v === 'number' && v % 1 === 0 && !Number.isNaN(v);
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObj(v);
    default:
      return typeof v === t;
  }
}

function unique(a: readonly unknown[]): boolean {
  for (let j = 0; j < a.length; j++) {
    const x = a[j];
    const xo = typeof x === 'object' && x !== null;
    for (let k = j + 1; k < a.length; k++) {
      const y = a[k];
      if (x === y || (xo && typeof y === 'object' && y !== null && deepCompareStrict(x, y))) return false;
    }
  }
  return true;
}

interface Ctx {
  root: unknown;
  resolve: RefResolver;
  /** Compiled `$ref` targets by pointer (filled lazily, so recursive schemas terminate). */
  refs: Map<string, Check>;
}

function at(root: unknown, pointer: string): unknown {
  let v = root;
  for (const s of pointer.split('/').slice(1)) v = (v as Obj)[s.replace(/~1/g, '/').replace(/~0/g, '~')];
  return v;
}

function refCheck(ctx: Ctx, ref: string): Check {
  const pointer = ctx.resolve(ref);
  if (pointer === undefined) throw new NotFast();
  let check = ctx.refs.get(pointer);
  if (!check) {
    // Registered before the target is compiled, so a recursive $ref meets this check instead of recursing;
    // `target` is set before any document is checked.
    let target: Check = () => false;
    check = (v) => target(v);
    ctx.refs.set(pointer, check);
    target = compile(ctx, at(ctx.root, pointer));
  }
  return check;
}

/** The checks of one schema object, one closure per keyword that applies. */
function compile(ctx: Ctx, schema: unknown): Check {
  if (schema === true) return () => true;
  if (schema === false) return () => false;
  const s = schema as Obj;
  for (const k of Object.keys(s)) if (!FAST_KEYWORDS.has(k)) throw new NotFast();
  const any: Check[] = [];
  const num: Check[] = [];
  const str: Check[] = [];
  const arr: ((a: unknown[]) => boolean)[] = [];
  const obj: ((o: Obj) => boolean)[] = [];
  if (s.$ref !== undefined) any.push(refCheck(ctx, s.$ref as string));
  if (s.type !== undefined) {
    const types = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
    const only = types.length === 1 ? types[0]! : undefined;
    any.push(only !== undefined ? (v) => typeOk(only, v) : (v) => types.some((t) => typeOk(t, v)));
  }
  if (s.const !== undefined) {
    const c = s.const;
    any.push(typeof c === 'object' && c !== null ? (v) => deepCompareStrict(v, c) : (v) => v === c);
  }
  if (s.enum !== undefined) {
    const e = s.enum as unknown[];
    any.push((v) => e.some((x) => (typeof x === 'object' && x !== null ? deepCompareStrict(v, x) : v === x)));
  }
  const n = (k: string) => s[k] as number | undefined;
  const [min, max, xmin, xmax] = [n('minimum'), n('maximum'), n('exclusiveMinimum'), n('exclusiveMaximum')];
  if (min !== undefined) num.push((v) => (v as number) >= min);
  if (max !== undefined) num.push((v) => (v as number) <= max);
  if (xmin !== undefined) num.push((v) => (v as number) > xmin);
  if (xmax !== undefined) num.push((v) => (v as number) < xmax);
  const [minLength, maxLength] = [n('minLength'), n('maxLength')];
  // A string's code points are between half its UTF-16 length and all of it, so most strings are judged by
  // `.length` alone; only one near the bound is counted (ucs2length walks the string: 900 characters of a
  // description cost more than the rest of a document's checks).
  if (minLength !== undefined)
    str.push((v) => {
      const n = (v as string).length;
      return n < minLength ? false : Math.ceil(n / 2) >= minLength || ucs2length(v as string) >= minLength;
    });
  if (maxLength !== undefined)
    str.push((v) => (v as string).length <= maxLength || ucs2length(v as string) <= maxLength);
  if (s.pattern !== undefined) {
    const re = new RegExp(s.pattern as string, 'u');
    str.push((v) => re.test(v as string));
  }
  if (s.format !== undefined) {
    const f = (format as Record<string, ((x: string) => boolean) | undefined>)[s.format as string];
    if (f) str.push((v) => f(v as string));
  }
  arrayChecks(ctx, s, arr);
  objectChecks(ctx, s, obj);
  // Plain loops, not `every((c) => c(v))`: that allocates a closure per value checked, and a write checks
  // every value of every document (bench/guarded-write.ts).
  return (v) => {
    if (!all(any, v)) return false;
    if (typeof v === 'number') return all(num, v);
    if (typeof v === 'string') return all(str, v);
    if (Array.isArray(v)) return all(arr as Check[], v);
    if (isObj(v)) return all(obj as Check[], v);
    return v === null || typeof v === 'boolean';
  };
}

function all(checks: readonly Check[], v: unknown): boolean {
  for (let i = 0; i < checks.length; i++) if (!checks[i]!(v)) return false;
  return true;
}

function arrayChecks(ctx: Ctx, s: Obj, arr: ((a: unknown[]) => boolean)[]): void {
  const prefix = ((s.prefixItems as unknown[] | undefined) ?? []).map((p) => compile(ctx, p));
  const items = s.items === undefined ? undefined : compile(ctx, s.items);
  if (prefix.length > 0 || items) {
    arr.push((a) => {
      for (let i = 0; i < a.length; i++) {
        const c = i < prefix.length ? prefix[i] : items;
        if (c && !c(a[i])) return false;
      }
      return true;
    });
  }
  const [minItems, maxItems] = [s.minItems as number | undefined, s.maxItems as number | undefined];
  if (minItems !== undefined) arr.push((a) => a.length >= minItems);
  if (maxItems !== undefined) arr.push((a) => a.length <= maxItems);
  if (s.uniqueItems === true) arr.push(unique);
}

function objectChecks(ctx: Ctx, s: Obj, obj: ((o: Obj) => boolean)[]): void {
  const props = Object.entries((s.properties as Obj | undefined) ?? {}).map(([k, p]) => [k, compile(ctx, p)] as const);
  const propNames = props.map(([k]) => k);
  const propChecks = props.map(([, c]) => c);
  const patterns = Object.entries((s.patternProperties as Obj | undefined) ?? {}).map(
    ([p, x]) => [new RegExp(p, 'u'), compile(ctx, x)] as const,
  );
  const known = new Set(props.map(([k]) => k));
  const extra = s.additionalProperties === undefined ? undefined : compile(ctx, s.additionalProperties);
  const required = (s.required as string[] | undefined) ?? [];
  const [minP, maxP] = [s.minProperties as number | undefined, s.maxProperties as number | undefined];
  obj.push((o) => {
    for (let i = 0; i < required.length; i++) if (!Object.hasOwn(o, required[i]!)) return false;
    for (let i = 0; i < propNames.length; i++) {
      const k = propNames[i]!;
      if (Object.hasOwn(o, k) && !propChecks[i]!(o[k])) return false;
    }
    if (patterns.length === 0 && !extra && minP === undefined && maxP === undefined) return true;
    const keys = Object.keys(o);
    if (minP !== undefined && keys.length < minP) return false;
    if (maxP !== undefined && keys.length > maxP) return false;
    for (const k of keys) {
      let matched = known.has(k);
      for (const [re, c] of patterns) {
        if (!re.test(k)) continue;
        matched = true;
        if (!c(o[k])) return false;
      }
      if (!matched && extra && !extra(o[k])) return false;
    }
    return true;
  });
}

/**
 * The fast check of a schema already accepted by checkSchema, or undefined when it uses a keyword the
 * fast path leaves to the library (then every document goes to the library).
 * @example
 * const valid = fastPath(schema, resolve);
 * if (valid?.(data)) return []; // else the library reports the problems
 */
export function fastPath(schema: unknown, resolve: RefResolver): Check | undefined {
  try {
    return compile({ root: schema, resolve, refs: new Map() }, schema);
  } catch (e) {
    if (e instanceof NotFast) return undefined;
    throw e;
  }
}
