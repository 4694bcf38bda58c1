/**
 * The `expect` option of DocumentStore writes, checked before any I/O: a list of `{ namespace, type,
 * expectations, runCheck? }`, each type once, expectations in the library's spelling checked by the same
 * rules as the spec's (parse.ts), and a `runCheck` wherever a `check` is given.
 */
import { InvalidConfig } from '../../core/errors.js';
import { assertIdentityFields } from '../identity.js';
import { parseExpectations } from './parse.js';
import type { Expectations, TypeExpectations } from './types.js';

/** Library spelling → spec spelling of the keys that differ. */
const SPEC_KEYS: Record<string, string> = {
  maxRemoved: 'max-removed',
  maxChanged: 'max-changed',
  notNull: 'not-null',
  acceptedValues: 'accepted-values',
};
const LIBRARY_KEYS = Object.fromEntries(Object.entries(SPEC_KEYS).map(([k, v]) => [v, k]));

/**
 * Expectations in the library's spelling, validated (a fresh copy); `InvalidConfig` naming the field.
 *
 * @example
 * checkExpectations({ maxRemoved: '10%' }, 'expect[0].expectations'); // { maxRemoved: '10%' }
 */
export function checkExpectations(value: unknown, field: string): Expectations {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return parseExpectations(value, field);
  const kebab = Object.keys(value).filter((k) => LIBRARY_KEYS[k]);
  if (kebab.length > 0) {
    const use = kebab.map((k) => `${k} (use ${LIBRARY_KEYS[k]})`).join(', ');
    throw new InvalidConfig(field, `${field} has unknown key(s) ${use}: the library spells them camelCase`, {
      allowed: 'count, maxRemoved, maxChanged, unique, notNull, acceptedValues, references, check',
    });
  }
  const spec = Object.fromEntries(Object.entries(value).map(([k, v]) => [SPEC_KEYS[k] ?? k, v]));
  try {
    return parseExpectations(spec, field);
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    // The parser names spec keys; a library caller wrote the camelCase ones.
    const camel = (s: string) =>
      s.replace(/(?<=\.|^| )(max-removed|max-changed|not-null|accepted-values)\b/g, (k) => LIBRARY_KEYS[k]!);
    throw new InvalidConfig(camel(String(e.data.field)), camel(e.message), {
      ...e.data,
      field: camel(String(e.data.field)),
    });
  }
}

/**
 * The `expect` option, validated before any I/O.
 *
 * @example
 * validateExpect([{ namespace: 'github', type: 'repo', expectations: { maxRemoved: '10%' } }]);
 */
export function validateExpect(value: unknown, field = 'expect'): TypeExpectations[] {
  const allowed = '[{ namespace, type, expectations: { count, maxRemoved, … }, runCheck? }]';
  if (!Array.isArray(value)) throw new InvalidConfig(field, `${field} must be a list of ${allowed}`, { allowed });
  const seen = new Set<string>();
  return value.map((t: unknown, i) => {
    const where = `${field}[${i}]`;
    if (typeof t !== 'object' || t === null) {
      throw new InvalidConfig(where, `${where} must be { namespace, type, expectations }`, { allowed });
    }
    const { namespace, type, expectations, runCheck } = t as Partial<TypeExpectations>;
    try {
      assertIdentityFields(namespace, type, 'x');
    } catch (e) {
      throw new InvalidConfig(where, `${where}: ${(e as Error).message}`, { allowed });
    }
    if (seen.has(`${namespace}/${type}`)) {
      throw new InvalidConfig(where, `${where} names ${namespace}/${type} again; give each type once`, { allowed });
    }
    seen.add(`${namespace}/${type}`);
    const parsed = checkExpectations(expectations, `${where}.expectations`);
    if (parsed.check && typeof runCheck !== 'function') {
      throw new InvalidConfig(
        `${where}.runCheck`,
        `${where}.expectations.check needs runCheck: a check module runs under the custom-reducer rules, loaded by the caller (docdb/node's loadCheck, or the projection runner)`,
        { allowed: 'a function (documents, context) => Promise<ExpectViolation[]>' },
      );
    }
    const out: TypeExpectations = { namespace: namespace!, type: type!, expectations: parsed };
    if (runCheck) out.runCheck = runCheck;
    return out;
  });
}
