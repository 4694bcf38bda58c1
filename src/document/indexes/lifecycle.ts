/**
 * Declaring and dropping indexes (issue 28, item 1: "adding or changing a declaration builds that index
 * in one commit; removing it deletes it"). Pure: the caller compares the declaration at the tip with
 * the one it commits, builds what was added or changed with `buildTypeIndex`, and deletes what
 * `dropIndex` lists.
 */
import { countsPaths } from './counts.js';
import type { IndexDeclaration, TypeIndex } from './declaration.js';
import { parseManifest } from './format.js';
import { manifestPath, partPath } from './paths.js';

const keyOf = (t: TypeIndex) => `${t.namespace}/${t.type}`;

/**
 * What changes between two declarations: `build` (new, or other fields) and `drop` (gone, or other
 * fields — the old files go; a rebuilt type's new files then replace them in the same commit).
 *
 * @example
 * declarationChanges({ version: 1, indexes: [] }, { version: 1, indexes: [{ namespace: 'g', type: 'repo', fields: ['id'] }] });
 * // { build: [{ namespace: 'g', type: 'repo', fields: ['id'] }], drop: [] }
 */
export function declarationChanges(
  before: IndexDeclaration,
  after: IndexDeclaration,
): { build: TypeIndex[]; drop: TypeIndex[] } {
  const old = new Map(before.indexes.map((t) => [keyOf(t), t]));
  const neu = new Map(after.indexes.map((t) => [keyOf(t), t]));
  const same = (a: TypeIndex, b: TypeIndex | undefined) =>
    b !== undefined && a.fields.join('\n') === b.fields.join('\n');
  return {
    build: after.indexes.filter((t) => !same(t, old.get(keyOf(t)))),
    drop: before.indexes.filter((t) => !same(t, neu.get(keyOf(t)))),
  };
}

/**
 * Every file of one type's index, from its manifest at the tip (none when there is no manifest): the
 * manifest, the parts and each field's value counts (counts.ts; an old index may lack them).
 *
 * @example
 * dropIndex((p) => filesAtTip.get(p), 'g', 'repo'); // ['_docdb/index/g/repo/manifest.json', '_docdb/index/g/repo/id/0.jsonl', …]
 */
export function dropIndex(read: (path: string) => Uint8Array | undefined, namespace: string, type: string): string[] {
  const bytes = read(manifestPath(namespace, type));
  if (bytes === undefined) return [];
  const m = parseManifest(bytes, namespace, type);
  const parts = m.runs.flatMap((run) => run.parts.map((p) => partPath(namespace, type, run.field, p.name)));
  return [manifestPath(namespace, type), ...parts, ...countsPaths(m)];
}
