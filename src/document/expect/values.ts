/**
 * `not-null` and `accepted-values` on the documents a write puts (documents it does not touch were held
 * to the same rules when they were written; `docdb doc test` checks a whole section). No read: the values
 * come from the write's own data. A violation names the key and the field, and the JSON type found —
 * never the value (it may be a secret).
 */
import type { ExpectOp } from './fields.js';
import type { AcceptedValue, Expectations, ExpectViolation } from './types.js';

/**
 * The JSON type of a value, as a violation may name it: `string`, `number`, `array`, `object`, `null`, `absent`.
 *
 * @example
 * jsonType(undefined); // 'absent'
 */
export function jsonType(v: unknown): string {
  if (v === undefined) return 'absent';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

/**
 * The violations of `not-null` and `accepted-values` among the written documents.
 *
 * @example
 * valueViolations({ notNull: ['data.title'] }, ops); // [{ expectation: 'not-null', field: 'data.title', key: 'g/issue/1.json', message: 'data.title is absent' }]
 */
export function valueViolations(e: Expectations, ops: readonly ExpectOp[]): ExpectViolation[] {
  const out: ExpectViolation[] = [];
  const accepted = Object.entries(e.acceptedValues ?? {}).map(([f, list]) => [f, acceptedSet(list)] as const);
  for (const op of ops) {
    if (op.deleted) continue;
    for (const field of e.notNull ?? []) {
      const v = op.values.get(field);
      if (v === undefined || v === null) {
        out.push({ expectation: 'not-null', field, key: op.key, message: `${field} is ${jsonType(v)}` });
      }
    }
    for (const [field, set] of accepted) {
      const v = op.values.get(field);
      if (v === undefined || set.has(scalarKey(v))) continue;
      out.push({
        expectation: 'accepted-values',
        field,
        key: op.key,
        message: `${field} holds a ${jsonType(v)} that is not one of the ${set.size} accepted values`,
      });
    }
  }
  return out;
}

/**
 * A comparable form of a scalar (so 1 and "1" differ); non-scalars never match.
 *
 * @example
 * scalarKey('1') === scalarKey(1); // false
 */
export function scalarKey(v: unknown): string {
  if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return JSON.stringify(v);
  return `\u0000${jsonType(v)}`;
}

function acceptedSet(list: readonly AcceptedValue[]): Set<string> {
  return new Set(list.map(scalarKey));
}
