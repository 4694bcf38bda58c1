/**
 * `expect:` as a spec (YAML) or a caller writes it, kebab-case keys, into {@link Expectations}. Every
 * problem is `InvalidConfig` naming the field (`expect.max-removed`) and what is allowed, with
 * `data.path` the field's segments after the base (so the spec parser can point at the YAML line).
 */
import { InvalidConfig } from '../../core/errors.js';
import { assertIdentityFields } from '../identity.js';
import type { AcceptedValue, Expectations } from './types.js';

/** Most fields one list (`unique`, `not-null`) or mapping (`accepted-values`, `references`) may name. */
export const MAX_EXPECT_FIELDS = 32;
/** Most values one `accepted-values` field may list. */
export const MAX_ACCEPTED_VALUES = 1000;

const KEYS = [
  'count',
  'max-removed',
  'max-changed',
  'unique',
  'not-null',
  'accepted-values',
  'references',
  'check',
] as const;
const FIELD_RULE = '"id" or a dotted path into data, such as "data.state"';
const MODULE_RE = /\.(m?js|cjs|m?ts)$/;

/** Where a problem is: the base field and the segments below it. */
type Where = readonly string[];

function fail(base: string, path: Where, message: string, allowed: string): never {
  const field = [base, ...path].join('.');
  throw new InvalidConfig(field, `${field} ${message}`, { path: [...path], allowed });
}

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/**
 * Parse `expect:` (kebab-case keys) into {@link Expectations}.
 *
 * @example
 * parseExpectations({ 'max-removed': '10%', unique: ['id'], 'accepted-values': { 'data.state': ['open', 'closed'] } });
 * // { maxRemoved: '10%', unique: ['id'], acceptedValues: { 'data.state': ['open', 'closed'] } }
 * parseExpectations({ 'max-removed': 'ten' }); // throws InvalidConfig: expect.max-removed must be a whole number ≥ 0 or a percentage …
 */
export function parseExpectations(value: unknown, field = 'expect'): Expectations {
  const o = objectOf(value, field, [], `a mapping of ${KEYS.join(', ')}`);
  const unknown = Object.keys(o).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    const hint = unknown.map((k) => (k.includes('_') || /[A-Z]/.test(k) ? `${k} (spelt kebab-case here)` : k));
    fail(field, [], `has unknown key(s) ${hint.join(', ')}`, KEYS.join(', '));
  }
  const out: Expectations = {};
  if (o.count !== undefined) out.count = countOf(o.count, field);
  if (o['max-removed'] !== undefined) out.maxRemoved = limitOf(o['max-removed'], field, 'max-removed');
  if (o['max-changed'] !== undefined) out.maxChanged = limitOf(o['max-changed'], field, 'max-changed');
  if (o.unique !== undefined) out.unique = fieldListOf(o.unique, field, 'unique');
  if (o['not-null'] !== undefined) out.notNull = fieldListOf(o['not-null'], field, 'not-null');
  if (o['accepted-values'] !== undefined) out.acceptedValues = acceptedOf(o['accepted-values'], field);
  if (o.references !== undefined) out.references = referencesOf(o.references, field);
  if (o.check !== undefined) out.check = checkOf(o.check, field);
  return out;
}

function objectOf(v: unknown, base: string, path: Where, allowed: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    fail(base, path, `must be ${allowed}, got ${kind(v)}`, allowed);
  return v as Record<string, unknown>;
}

function wholeNumber(v: unknown, base: string, path: Where): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    fail(base, path, `must be a whole number ≥ 0, got ${typeof v === 'number' ? v : kind(v)}`, 'a whole number ≥ 0');
  }
  return v;
}

function countOf(v: unknown, base: string): NonNullable<Expectations['count']> {
  const allowed = '{ min: N, max: N } (either or both, whole numbers, min ≤ max)';
  const o = objectOf(v, base, ['count'], allowed);
  const extra = Object.keys(o).filter((k) => k !== 'min' && k !== 'max');
  if (extra.length > 0) fail(base, ['count'], `has unknown key(s) ${extra.join(', ')}`, allowed);
  const out: { min?: number; max?: number } = {};
  if (o.min !== undefined) out.min = wholeNumber(o.min, base, ['count', 'min']);
  if (o.max !== undefined) out.max = wholeNumber(o.max, base, ['count', 'max']);
  if (out.min === undefined && out.max === undefined) fail(base, ['count'], 'must give min and/or max', allowed);
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    fail(base, ['count'], `has min ${out.min} above max ${out.max}`, allowed);
  }
  return out;
}

function limitOf(v: unknown, base: string, key: string): number | `${number}%` {
  const allowed = 'a whole number ≥ 0, or a percentage from "0%" to "100%" such as "10%"';
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && v >= 0) return v;
    fail(base, [key], `must be ${allowed}, got ${v}`, allowed);
  }
  if (typeof v === 'string') {
    const m = /^(\d{1,3}(?:\.\d{1,4})?)%$/.exec(v.trim());
    if (m && Number(m[1]) <= 100) return `${Number(m[1])}%`;
    fail(base, [key], `must be ${allowed}, got ${JSON.stringify(v.slice(0, 20))}`, allowed);
  }
  fail(base, [key], `must be ${allowed}, got ${kind(v)}`, allowed);
}

function fieldOf(v: unknown, base: string, path: Where): string {
  const ok =
    typeof v === 'string' &&
    v.length <= 200 &&
    (v === 'id' || (v.startsWith('data.') && !v.slice(5).split('.').includes(''))) &&
    !/[\u0000-\u001f\u007f]/.test(v);
  if (!ok)
    fail(
      base,
      path,
      `must be ${FIELD_RULE}, got ${typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : kind(v)}`,
      FIELD_RULE,
    );
  return v as string;
}

function fieldListOf(v: unknown, base: string, key: string): string[] {
  const allowed = `a list of 1 to ${MAX_EXPECT_FIELDS} fields (${FIELD_RULE})`;
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_EXPECT_FIELDS) {
    fail(base, [key], `must be ${allowed}, got ${Array.isArray(v) ? `${v.length} items` : kind(v)}`, allowed);
  }
  const fields = v.map((f, i) => fieldOf(f, base, [key, String(i)]));
  const twice = fields.find((f, i) => fields.indexOf(f) !== i);
  if (twice !== undefined) fail(base, [key], `lists ${twice} twice`, allowed);
  return fields;
}

function fieldMapOf(v: unknown, base: string, key: string, allowed: string): [string, unknown][] {
  const entries = Object.entries(objectOf(v, base, [key], allowed));
  if (entries.length === 0 || entries.length > MAX_EXPECT_FIELDS) {
    fail(base, [key], `must name 1 to ${MAX_EXPECT_FIELDS} fields, got ${entries.length}`, allowed);
  }
  for (const [f] of entries) fieldOf(f, base, [key, f]);
  return entries;
}

function acceptedOf(v: unknown, base: string): Record<string, AcceptedValue[]> {
  const allowed = `a mapping of field to a list of 1 to ${MAX_ACCEPTED_VALUES} scalar values, e.g. { data.state: [open, closed] }`;
  const out: Record<string, AcceptedValue[]> = {};
  for (const [f, list] of fieldMapOf(v, base, 'accepted-values', allowed)) {
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_ACCEPTED_VALUES) {
      fail(
        base,
        ['accepted-values', f],
        `must be a list of 1 to ${MAX_ACCEPTED_VALUES} values, got ${kind(list)}`,
        allowed,
      );
    }
    list.forEach((x, i) => {
      const scalar =
        x === null || ['string', 'boolean'].includes(typeof x) || (typeof x === 'number' && Number.isFinite(x));
      if (!scalar)
        fail(
          base,
          ['accepted-values', f, String(i)],
          `must be a string, number, boolean or null, got ${kind(x)}`,
          allowed,
        );
    });
    out[f] = [...(list as AcceptedValue[])];
  }
  return out;
}

function referencesOf(v: unknown, base: string): Record<string, string> {
  const allowed = 'a mapping of field to "namespace/type", e.g. { data.repo: github/repo }';
  const out: Record<string, string> = {};
  for (const [f, target] of fieldMapOf(v, base, 'references', allowed)) {
    const parts = typeof target === 'string' ? target.split('/') : [];
    try {
      if (parts.length !== 2) throw new Error('not namespace/type');
      assertIdentityFields(parts[0], parts[1], 'x');
    } catch {
      fail(
        base,
        ['references', f],
        `must be "namespace/type", got ${typeof target === 'string' ? JSON.stringify(target.slice(0, 60)) : kind(target)}`,
        allowed,
      );
    }
    out[f] = target as string;
  }
  return out;
}

function checkOf(v: unknown, base: string): { module: string } {
  const allowed = '{ module: ./checks/x.mjs } (a .js, .mjs, .cjs, .ts or .mts file inside the workspace)';
  const o = objectOf(v, base, ['check'], allowed);
  const extra = Object.keys(o).filter((k) => k !== 'module');
  if (extra.length > 0) fail(base, ['check'], `has unknown key(s) ${extra.join(', ')}`, allowed);
  if (typeof o.module !== 'string' || !MODULE_RE.test(o.module)) {
    fail(
      base,
      ['check', 'module'],
      `must be a path to a module, got ${typeof o.module === 'string' ? JSON.stringify(o.module.slice(0, 60)) : kind(o.module)}`,
      allowed,
    );
  }
  return { module: o.module };
}
