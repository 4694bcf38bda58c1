/**
 * The write path's declared-features half: the declarations hook (index maintenance, schema checks), the
 * schema compiler behind a write's `schemas`, expectations (`expect`) and index declarations. DocumentStore
 * reaches it only through `features.write()` (features.ts), and only when a write needs it: a write that
 * declares something, or one to a section that declares something about the written types
 * (light-write.ts). In Node it is loaded with the store; the browser bundle loads it on first use.
 */
import type { RefStore } from '../core/refstore.js';
import type { PreparedSchema } from './declarations.js';
import { applyDeclare } from './index-write.js';
import type { TypeIndex } from './indexes/index.js';
import { PartsSchemas } from './schema/parts.js';
import { storedSchema } from './schema/read.js';

export { declarationsDerive, prepareSchemas, writeHook } from './declarations.js';
export { expectingWrite } from './expect/write.js';
export { applyDeclare } from './index-write.js';
export { PartsSchemas } from './schema/parts.js';
export { storedSearchDeclaration } from './search-declared.js';
export { checkRebuildSearch } from './search-rebuild.js';
export { applySearchDeclare, checkSearch } from './search-write.js';

/**
 * Indexes a write declares, checked before any I/O (`fields: []` drops, so it is not checked as a declaration).
 *
 * @example
 * checkIndexes([{ namespace: 'github', type: 'repo', fields: ['data.stars'] }]); // throws InvalidConfig when bad
 */
export function checkIndexes(indexes: readonly TypeIndex[]): void {
  applyDeclare(
    { version: 1, indexes: [] },
    indexes.filter((t) => t?.fields?.length !== 0),
  );
}

/**
 * The schema checks of one write (schema/parts.ts): documents of a type whose schema it declares are
 * checked as they are encoded; a commit in parts learns the section's schemas as its parts arrive.
 *
 * @example
 * const checks = schemaChecks(store, prepareSchemas(schemas));
 */
export function schemaChecks(store: RefStore, declared: readonly PreparedSchema[] | undefined): PartsSchemas {
  return new PartsSchemas(
    (namespace, type) => storedSchema(store, { namespace, type }),
    new Map((declared ?? []).map((d) => [`${d.namespace}/${d.type}`, d.compiled])),
  );
}
