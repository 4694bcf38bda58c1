/**
 * `unique`: no two documents of the type after the write share a value of the field (absent and null
 * values are not compared). Among the written documents from the write's own data; against the others,
 * from the type's index when it holds the field (the parts the written values sort into: a few requests
 * at any size), else by reading the type's documents in bulk (a listing and the store's bulk read — on
 * the GitHub API store about 5 requests per 10,000 documents).
 */
import { appendAll } from '../../core/arrays.js';
import { deriveKey } from '../identity.js';
import { isCut, type Stored, storeScalar, valueAt } from '../indexes/values.js';
import type { ExpectOp } from './fields.js';
import type { Tip } from './tip.js';
import type { ExpectViolation } from './types.js';

/** A comparable form of a value (scalars and arrays of them; JSON otherwise). */
const valueKey = (v: unknown) => JSON.stringify(v);

/**
 * The violations of `unique` on `fields` for the written documents `ops` of type `t`.
 *
 * @example
 * await uniqueViolations(tip, { namespace: 'g', type: 'repo' }, ['data.slug'], ops);
 */
export async function uniqueViolations(
  tip: Tip,
  t: { namespace: string; type: string },
  fields: readonly string[],
  ops: readonly ExpectOp[],
): Promise<ExpectViolation[]> {
  const out: ExpectViolation[] = [];
  const touched = new Set(ops.map((o) => o.key));
  for (const field of fields) {
    const held = new Map<string, { key: string; value: unknown }>();
    for (const op of ops) {
      const v = op.deleted ? undefined : op.values.get(field);
      if (v === undefined || v === null) continue;
      const k = valueKey(v);
      const first = held.get(k);
      if (first) out.push(clash(field, op.key, first.key));
      else held.set(k, { key: op.key, value: v });
    }
    if (held.size === 0 || tip.version === null) continue;
    const others =
      (await fromIndex(tip, t, field, held, touched)) ?? (await fromDocuments(tip, t, field, held, touched));
    appendAll(out, others);
  }
  return out;
}

function clash(field: string, key: string, other: string): ExpectViolation {
  return { expectation: 'unique', field, key, message: `${field} holds the same value as ${other}` };
}

/** Clashes with documents the write does not touch, from the index; undefined when it cannot answer. */
async function fromIndex(
  tip: Tip,
  t: { namespace: string; type: string },
  field: string,
  held: Map<string, { key: string; value: unknown }>,
  touched: ReadonlySet<string>,
): Promise<ExpectViolation[] | undefined> {
  const m = await tip.manifest(t);
  if (!m?.fields.includes(field)) return undefined;
  const stored: { stored: Stored; key: string }[] = [];
  for (const { key, value } of held.values()) {
    // An index stores long strings cut and arrays as element rows: only whole scalars are looked up there.
    if (typeof value === 'object' && value !== null) return undefined;
    const s = storeScalar(value as string | number | boolean);
    if (isCut(s)) return undefined;
    stored.push({ stored: s, key });
  }
  const rows = await tip.rowsWith(
    m,
    field,
    stored.map((s) => s.stored),
  );
  if (!rows) return undefined;
  const out: ExpectViolation[] = [];
  for (const row of rows) {
    const other = deriveKey({ namespace: t.namespace, doc_type: t.type, id: row.id });
    if (touched.has(other)) continue;
    const mine = held.get(valueKey(row.key));
    if (mine) out.push(clash(field, mine.key, other));
  }
  return out;
}

/** Clashes with documents the write does not touch, by reading them (the type has no index on the field). */
async function fromDocuments(
  tip: Tip,
  t: { namespace: string; type: string },
  field: string,
  held: Map<string, { key: string; value: unknown }>,
  touched: ReadonlySet<string>,
): Promise<ExpectViolation[]> {
  const out: ExpectViolation[] = [];
  for await (const d of tip.documents(t, touched)) {
    const v = valueAt(d.id, d.data, field);
    if (v === undefined || v === null) continue;
    const mine = held.get(valueKey(v));
    if (mine) out.push(clash(field, mine.key, d.key));
  }
  return out;
}
