/**
 * `references`: every value of a field (a string, or each string of an array) is the id of a document
 * of the named type after the write — a document the write puts, or one at the tip the write does not
 * delete. Answered from the referenced type's index when it indexes `id` (its manifest and the parts the
 * ids sort into), else from one listing of its keys; never by reading the referenced documents.
 */
import { deriveKey } from '../identity.js';
import { isCut, storeScalar } from '../indexes/values.js';
import type { ExpectOp } from './fields.js';
import type { Tip } from './tip.js';
import type { ExpectViolation } from './types.js';

/** The ids a value names: a string, a number, or each of an array's. */
function idsOf(v: unknown): string[] {
  const one = (x: unknown) => (typeof x === 'string' ? [x] : typeof x === 'number' ? [String(x)] : []);
  return Array.isArray(v) ? v.flatMap(one) : one(v);
}

/** The key of `id` in `target` (`namespace/type`), or undefined when it cannot be an id at all. */
function keyOf(target: string, id: string): string | undefined {
  const [namespace, doc_type] = target.split('/') as [string, string];
  try {
    return deriveKey({ namespace, doc_type, id });
  } catch {
    return undefined;
  }
}

/**
 * The violations of `references` for the written documents `mine`, given every op of the write (`all`,
 * which holds the referenced types' puts and deletes).
 *
 * @example
 * await referenceViolations(tip, { 'data.repo': 'github/repo' }, mine, all);
 */
export async function referenceViolations(
  tip: Tip,
  references: Readonly<Record<string, string>>,
  mine: readonly ExpectOp[],
  all: readonly ExpectOp[],
): Promise<ExpectViolation[]> {
  const out: ExpectViolation[] = [];
  for (const [field, target] of Object.entries(references)) {
    const wanted = new Map<string, string[]>(); // referenced key → referencing keys
    let bad: string[] = [];
    for (const op of mine) {
      if (op.deleted) continue;
      for (const id of idsOf(op.values.get(field))) {
        const key = keyOf(target, id);
        if (key === undefined) bad.push(op.key);
        else {
          const from = wanted.get(key);
          if (from) from.push(op.key);
          else wanted.set(key, [op.key]);
        }
      }
    }
    const missing = await missingKeys(tip, target, wanted, all);
    bad = [...bad, ...missing.flatMap((k) => wanted.get(k) ?? [])];
    for (const key of new Set(bad)) {
      out.push({ expectation: 'references', field, key, message: `${field} names no document of ${target}` });
    }
  }
  return out;
}

/** The referenced keys that do not exist after the write. */
async function missingKeys(
  tip: Tip,
  target: string,
  wanted: ReadonlyMap<string, readonly string[]>,
  all: readonly ExpectOp[],
): Promise<string[]> {
  const [namespace, type] = target.split('/') as [string, string];
  const written = new Map(all.filter((o) => `${o.namespace}/${o.type}` === target).map((o) => [o.key, !o.deleted]));
  const atTip = [...wanted.keys()].filter((k) => !written.has(k));
  const found = atTip.length === 0 ? new Set<string>() : await existing(tip, { namespace, type }, atTip);
  return [...wanted.keys()].filter((k) => (written.has(k) ? !written.get(k) : !found.has(k)));
}

/** Which of `keys` exist at the tip: from the type's `id` index, else its key listing. */
async function existing(
  tip: Tip,
  t: { namespace: string; type: string },
  keys: readonly string[],
): Promise<Set<string>> {
  if (tip.version === null) return new Set();
  const m = await tip.manifest(t);
  const ids = keys.map((k) => k.slice(t.namespace.length + t.type.length + 2, -'.json'.length));
  // A long id is stored cut in an index: only whole ones are looked up there.
  if (m?.fields.includes('id') && !ids.some((id) => isCut(storeScalar(id)))) {
    const rows = await tip.rowsWith(m, 'id', ids);
    if (rows) return new Set(rows.map((r) => deriveKey({ namespace: t.namespace, doc_type: t.type, id: r.id })));
  }
  const listed = await tip.keys(t);
  return new Set(keys.filter((k) => listed.has(k)));
}
