/**
 * A fast yes/no check for the common case — a valid document against a schema of plain keywords — so a
 * 10,000-document write does not pay the library's general interpreter per document. It is compiled into
 * closures (no `new Function`: the viewer's Content-Security-Policy stays without `unsafe-eval`) and uses the
 * library's own helpers (`deepCompareStrict`, `ucs2length`, `format`), so its verdict is the library's
 * (a property test compares them). It only says "valid": when it says no, or when the schema uses a keyword
 * outside {@link FAST_KEYWORDS}, the library validates and reports the problems.
 */
import { deepCompareStrict, ucs2length } from '@cfworker/json-schema';
import type { RefResolver } from './check-schema.js';
import { fastFormat } from './fast-format.js';
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

/** One check per JSON Schema type name (no closure per call, no switch per value). */
const TYPE_CHECKS: Record<string, Check> = {
  integer: (v) => typeof v === 'number' && v % 1 === 0 && !Number.isNaN(v),
  number: (v) => typeof v === 'number',
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  array: (v) => Array.isArray(v),
  object: isObj,
};

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

/**
 * Several checks as one (undefined: none). Two are joined directly and more looped over: a value passes
 * through a handful of calls, not an array walk per keyword kind (a write checks every value of every
 * document, bench/guarded-write.ts).
 */
function seq<T>(checks: readonly ((v: T) => boolean)[]): ((v: T) => boolean) | undefined {
  const [a, b] = checks;
  if (checks.length === 0) return undefined;
  if (checks.length === 1) return a;
  if (checks.length === 2) return (v) => a!(v) && b!(v);
  return (v) => {
    for (let i = 0; i < checks.length; i++) if (!checks[i]!(v)) return false;
    return true;
  };
}

/** The checks of one schema object, each keyword kind joined into one check (see {@link seq}). */
function compile(ctx: Ctx, schema: unknown): Check {
  if (schema === true) return () => true;
  if (schema === false) return () => false;
  const s = schema as Obj;
  for (const k of Object.keys(s)) if (!FAST_KEYWORDS.has(k)) throw new NotFast();
  const any = seq(anyChecks(ctx, s));
  const num = seq(numberChecks(s));
  const str = seq(stringChecks(s));
  const arr = seq(arrayChecks(ctx, s));
  const obj = seq(objectChecks(ctx, s));
  return (v) => {
    if (any !== undefined && !any(v)) return false;
    switch (typeof v) {
      case 'number':
        return num === undefined || num(v);
      case 'string':
        return str === undefined || str(v);
      case 'boolean':
        return true;
      case 'object':
        if (v === null) return true;
        if (Array.isArray(v)) return arr === undefined || arr(v);
        return obj === undefined || obj(v as Obj);
      default:
        return false;
    }
  };
}

/** Keywords that apply to any value: `$ref`, `type`, `const`, `enum`. */
function anyChecks(ctx: Ctx, s: Obj): Check[] {
  const any: Check[] = [];
  if (s.$ref !== undefined) any.push(refCheck(ctx, s.$ref as string));
  if (s.type !== undefined) {
    const types = ((Array.isArray(s.type) ? s.type : [s.type]) as string[]).map((t) => TYPE_CHECKS[t]!);
    const [only] = types;
    any.push(
      types.length === 1
        ? only!
        : (v) => {
            for (let i = 0; i < types.length; i++) if (types[i]!(v)) return true;
            return false;
          },
    );
  }
  if (s.const !== undefined) {
    const c = s.const;
    any.push(typeof c === 'object' && c !== null ? (v) => deepCompareStrict(v, c) : (v) => v === c);
  }
  if (s.enum !== undefined) {
    const e = s.enum as unknown[];
    any.push((v) => {
      for (let i = 0; i < e.length; i++) {
        const x = e[i];
        if (typeof x === 'object' && x !== null ? deepCompareStrict(v, x) : v === x) return true;
      }
      return false;
    });
  }
  return any;
}

function numberChecks(s: Obj): ((v: number) => boolean)[] {
  const num: ((v: number) => boolean)[] = [];
  const n = (k: string) => s[k] as number | undefined;
  const [min, max, xmin, xmax] = [n('minimum'), n('maximum'), n('exclusiveMinimum'), n('exclusiveMaximum')];
  if (min !== undefined) num.push((v) => v >= min);
  if (max !== undefined) num.push((v) => v <= max);
  if (xmin !== undefined) num.push((v) => v > xmin);
  if (xmax !== undefined) num.push((v) => v < xmax);
  return num;
}

function stringChecks(s: Obj): ((v: string) => boolean)[] {
  const str: ((v: string) => boolean)[] = [];
  const [minLength, maxLength] = [s.minLength as number | undefined, s.maxLength as number | undefined];
  // A string's code points are between half its UTF-16 length and all of it, so most strings are judged by
  // `.length` alone; only one near the bound is counted (ucs2length walks the string: 900 characters of a
  // description cost more than the rest of a document's checks).
  if (minLength !== undefined)
    str.push((v) => {
      const n = v.length;
      return n < minLength ? false : Math.ceil(n / 2) >= minLength || ucs2length(v) >= minLength;
    });
  if (maxLength !== undefined) str.push((v) => v.length <= maxLength || ucs2length(v) <= maxLength);
  if (s.pattern !== undefined) {
    const re = new RegExp(s.pattern as string, 'u');
    str.push((v) => re.test(v));
  }
  if (s.format !== undefined) {
    const f = fastFormat(s.format as string);
    if (f) str.push(f);
  }
  return str;
}

function arrayChecks(ctx: Ctx, s: Obj): ((a: unknown[]) => boolean)[] {
  const arr: ((a: unknown[]) => boolean)[] = [];
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
  return arr;
}

function objectChecks(ctx: Ctx, s: Obj): ((o: Obj) => boolean)[] {
  const props = Object.entries((s.properties as Obj | undefined) ?? {}).map(([k, p]) => [k, compile(ctx, p)] as const);
  const patterns = Object.entries((s.patternProperties as Obj | undefined) ?? {}).map(
    ([p, x]) => [new RegExp(p, 'u'), compile(ctx, x)] as const,
  );
  const extra = s.additionalProperties === undefined ? undefined : compile(ctx, s.additionalProperties);
  const [minP, maxP] = [s.minProperties as number | undefined, s.maxProperties as number | undefined];
  const obj: ((o: Obj) => boolean)[] = [];
  const required = (s.required as string[] | undefined) ?? [];
  if (required.length > 0) {
    obj.push((o) => {
      for (let i = 0; i < required.length; i++) if (!Object.hasOwn(o, required[i]!)) return false;
      return true;
    });
  }
  if (patterns.length === 0 && !extra && minP === undefined && maxP === undefined) {
    if (props.length > 0) obj.push(declaredProperties(props));
  } else if (props.length > 0 || patterns.length > 0 || extra || minP !== undefined || maxP !== undefined) {
    obj.push(everyProperty(new Map(props), patterns, extra, minP, maxP));
  }
  return obj;
}

/** `properties` alone: only the declared names are looked up (a document may have many more). */
function declaredProperties(props: readonly (readonly [string, Check])[]): (o: Obj) => boolean {
  const names = props.map(([k]) => k);
  const checks = props.map(([, c]) => c);
  return (o) => {
    for (let i = 0; i < names.length; i++) {
      const k = names[i]!;
      if (Object.hasOwn(o, k) && !checks[i]!(o[k])) return false;
    }
    return true;
  };
}

/**
 * `properties` with `patternProperties`, `additionalProperties` or a property count: one walk over the
 * object's own keys (`for…in` reads values through its enumeration cache; no array of keys per object).
 */
function everyProperty(
  props: ReadonlyMap<string, Check>,
  patterns: readonly (readonly [RegExp, Check])[],
  extra: Check | undefined,
  minP: number | undefined,
  maxP: number | undefined,
): (o: Obj) => boolean {
  return (o) => {
    let count = 0;
    for (const k in o) {
      if (!Object.hasOwn(o, k)) continue;
      count++;
      const c = props.get(k);
      if (c !== undefined && !c(o[k])) return false;
      let matched = c !== undefined;
      for (let i = 0; i < patterns.length; i++) {
        const p = patterns[i]!;
        if (!p[0].test(k)) continue;
        matched = true;
        if (!p[1](o[k])) return false;
      }
      if (!matched && extra !== undefined && !extra(o[k])) return false;
    }
    return (minP === undefined || count >= minP) && (maxP === undefined || count <= maxP);
  };
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
