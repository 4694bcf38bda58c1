/**
 * Rebuilding a type's search from its documents on demand (`DocumentStore.rebuildSearch`, CLI
 * `docdb doc search-index --rebuild`). A damaged term shard is never read by a small write — it goes to the
 * delta of recent writes — and declaring the same fields again writes nothing, so without this a damaged
 * shard refused every search of its type until search was dropped and declared again. A rebuild takes the
 * path a changed declaration takes (search-write.ts `typeFiles` with `rebuilt`): every file of the type
 * built again from the documents at the tip, the old ones deleted, in ONE commit.
 */
import { InvalidConfig, InvalidIdentity } from '../core/errors.js';
import { assertIdentityFields } from './identity.js';
import { array, at, fail, onlyKeys, record, ShapeProblem, string } from './indexes/check.js';
import { MAX_DECLARED_TYPES } from './indexes/declaration.js';
import type { SearchDeclaration, TypeSearch } from './search/index.js';

/** One type whose search to rebuild. */
export interface SearchTypeName {
  namespace: string;
  type: string;
}

const ALLOWED = `[{ namespace, type }, …] (1 to ${MAX_DECLARED_TYPES} types)`;

/**
 * The types a rebuild names, checked before any I/O: an array of 1 to 1000 `{ namespace, type }` with valid
 * identity parts; anything else is `InvalidConfig` naming `types[i]…`. Repeats are kept once.
 *
 * @example
 * checkRebuildSearch([{ namespace: 'github', type: 'repo' }]); // [{ namespace: 'github', type: 'repo' }]
 * checkRebuildSearch([{ namespace: 'github' }]); // throws InvalidConfig: types[0].type must be a string…
 */
export function checkRebuildSearch(types: unknown): SearchTypeName[] {
  const list = shaped(types);
  list.forEach((t, i) => {
    try {
      assertIdentityFields(t.namespace, t.type, 'x');
    } catch (e) {
      if (!(e instanceof InvalidIdentity)) throw e;
      const field = at(at('types', i), e.data.field === 'doc_type' ? 'type' : 'namespace');
      throw new InvalidConfig(field, `rebuildSearch ${field}: ${e.message}`, { allowed: ALLOWED });
    }
  });
  const byKey = new Map(list.map((t) => [`${t.namespace}/${t.type}`, t]));
  return [...byKey.values()];
}

/** The list's shape (an array of `{ namespace, type }` strings), or InvalidConfig at the first problem. */
function shaped(types: unknown): SearchTypeName[] {
  try {
    const list = array(types, 'types', MAX_DECLARED_TYPES, `must list at most ${MAX_DECLARED_TYPES} types`);
    if (list.length === 0) fail('types', 'must list at least one { namespace, type }');
    return list.map((item, i) => {
      const where = at('types', i);
      const o = record(item, where);
      const namespace = string(o.namespace, at(where, 'namespace'), 1);
      const type = string(o.type, at(where, 'type'), 1);
      onlyKeys(o, where, ['namespace', 'type']);
      return { namespace, type };
    });
  } catch (e) {
    if (!(e instanceof ShapeProblem)) throw e;
    throw new InvalidConfig(e.field, `rebuildSearch ${e.field} ${e.problem}`, { allowed: ALLOWED });
  }
}

/**
 * The declared search of each type a rebuild names, on the tip the write builds on; a type without search
 * declared there is `InvalidConfig` naming it (nothing is written).
 *
 * @example
 * rebuildTargets(declaration, [{ namespace: 'github', type: 'repo' }]); // [{ namespace, type, fields: [...] }]
 */
export function rebuildTargets(declared: SearchDeclaration, types: readonly SearchTypeName[]): TypeSearch[] {
  return types.map((t, i) => {
    const found = declared.search.find((s) => s.namespace === t.namespace && s.type === t.type);
    if (found) return found;
    throw new InvalidConfig(
      at('types', i),
      `rebuildSearch: ${t.namespace}/${t.type} has no search declared, so there is nothing to rebuild; declare it instead: docs.declareSearch([{ namespace: '${t.namespace}', type: '${t.type}', fields: ['data.title', …] }]) (CLI: docdb doc search-index --namespace ${t.namespace} --type ${t.type} --fields …)`,
      { namespace: t.namespace, type: t.type },
    );
  });
}
