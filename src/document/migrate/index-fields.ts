/**
 * A migration keeps the type's index useful: a renamed field stays indexed under its new name, a dropped
 * one leaves the index, and a `move-type` takes the declaration to the new type (the old type's index is
 * dropped). The index parts themselves are rebuilt by DocumentStore's commit hook (index-write.ts) in the
 * migration's commit, from the declaration this module computes.
 */
import type { TypeIndex } from '../indexes/index.js';
import type { MigrationOperation } from './operations.js';

/** The fields of an index after the operations (renames followed, drops removed, duplicates once). */
export function migratedFields(fields: readonly string[], operations: readonly MigrationOperation[]): string[] {
  let out = [...fields];
  for (const o of operations) {
    if (o.op === 'rename') {
      out = out.map((f) => (f === o.from ? o.to : f.startsWith(`${o.from}.`) ? o.to + f.slice(o.from.length) : f));
    } else if (o.op === 'drop') {
      out = out.filter((f) => f !== o.field && !f.startsWith(`${o.field}.`));
    }
  }
  return [...new Set(out)];
}

/**
 * The index declarations a migration's commit makes (`indexes` of the commit options): none when the
 * declaration stays as it is.
 *
 * @example
 * indexChanges([{ namespace: 'n', type: 't', fields: ['data.a'] }], 'n', 't',
 *   [{ op: 'move-type', namespace: 'n', type: 'u' }]);
 * // [{ namespace: 'n', type: 't', fields: [] }, { namespace: 'n', type: 'u', fields: ['data.a'] }]
 */
export function indexChanges(
  declared: readonly TypeIndex[],
  namespace: string,
  type: string,
  operations: readonly MigrationOperation[],
): TypeIndex[] {
  const source = declared.find((t) => t.namespace === namespace && t.type === type);
  if (!source) return [];
  const fields = migratedFields(source.fields, operations);
  const move = operations.find((o) => o.op === 'move-type');
  if (!move) {
    const same = fields.length === source.fields.length && fields.every((f, i) => f === source.fields[i]);
    return same ? [] : [{ namespace, type, fields }];
  }
  const out: TypeIndex[] = [{ namespace, type, fields: [] }];
  const targetDeclared = declared.some((t) => t.namespace === move.namespace && t.type === move.type);
  if (!targetDeclared && fields.length > 0) out.push({ namespace: move.namespace, type: move.type, fields });
  return out;
}
