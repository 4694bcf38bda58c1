/**
 * The documents of a write as expectations need them: identity, key, whether it is deleted, and only the
 * values of the fields some expectation names (a whole document's data only for a `check`), so a large
 * commit in parts keeps a few values per document, not its data.
 */
import { valueAt } from '../indexes/values.js';
import type { Expectations, TypeExpectations } from './types.js';

/** One document of the write, for the expectations of its type. */
export interface ExpectOp {
  namespace: string;
  type: string;
  id: string;
  key: string;
  deleted: boolean;
  /** Field → value (undefined: absent) for every field an expectation of the type names. */
  values: Map<string, unknown>;
  /** The document's data, kept only when the type has a `check`. */
  data?: unknown;
}

/** `namespace/type`, the map key of a type throughout this folder. */
export const typeKey = (t: { namespace: string; type: string }) => `${t.namespace}/${t.type}`;

/**
 * Every field an expectation reads a value of (`unique`, `not-null`, `accepted-values`, `references`).
 *
 * @example
 * fieldsOf({ unique: ['id'], notNull: ['data.title'] }); // ['id', 'data.title']
 */
export function fieldsOf(e: Expectations): string[] {
  const all = [
    ...(e.unique ?? []),
    ...(e.notNull ?? []),
    ...Object.keys(e.acceptedValues ?? {}),
    ...Object.keys(e.references ?? {}),
  ];
  return [...new Set(all)];
}

/** Per type, what to keep of its written documents: the fields, and whether the whole data (check). */
export interface Keep {
  fields: string[];
  data: boolean;
}

/**
 * What to keep per `namespace/type` for a write's expectations.
 *
 * @example
 * keepOf([{ namespace: 'g', type: 'repo', expectations: { unique: ['id'] } }]).get('g/repo'); // { fields: ['id'], data: false }
 */
export function keepOf(entries: readonly TypeExpectations[]): Map<string, Keep> {
  const out = new Map<string, Keep>();
  // A referenced type's own puts and deletes decide what exists after the write: keep their keys.
  for (const t of entries) {
    for (const target of Object.values(t.expectations.references ?? {})) out.set(target, { fields: [], data: false });
  }
  for (const t of entries) {
    out.set(typeKey(t), { fields: fieldsOf(t.expectations), data: t.expectations.check !== undefined });
  }
  return out;
}

/**
 * The op of one written document (`data` undefined for a delete).
 *
 * @example
 * const op = expectOp({ namespace: 'g', type: 'repo', id: 'o/r', key: 'g/repo/o/r.json' }, { stars: 1 }, keep);
 */
export function expectOp(
  d: { namespace: string; type: string; id: string; key: string },
  data: unknown,
  keep: Keep,
  deleted = false,
): ExpectOp {
  const values = new Map<string, unknown>();
  if (!deleted) for (const f of keep.fields) values.set(f, valueAt(d.id, data, f));
  const op: ExpectOp = { ...d, deleted, values };
  if (keep.data && !deleted) op.data = data;
  return op;
}
