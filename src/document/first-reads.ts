/**
 * The FIRST read round of every DocumentStore write's declarations hook (declarations.ts): which types the
 * write touches and the keys that say what the section declares about them — the index declaration, each
 * type's index manifest and its schema file, the search declaration and each type's search manifest. Kept apart from the hook itself (and free of the index engine
 * and the schema validator) so the browser bundle can make this read up front and load the hook's code
 * only when something is declared (src/document/light-write.ts).
 */
import { DECLARATION_KEY } from './indexes/declaration.js';
import { manifestPath } from './indexes/paths.js';
import { typeDeclarationPath } from './schema/declaration.js';

type TypeName = { namespace: string; type: string };

/**
 * The search declaration's key and a type's search manifest — the search core's `SEARCH_DECLARATION_KEY`
 * and `searchManifestPath` (search-store.test.ts asserts they agree), spelled here so that the browser
 * bundle's entry, which makes this read round, does not carry the search core.
 */
export const SEARCH_DECLARATION_PATH = '_docdb/search.json';

/**
 * @example
 * searchManifestAt('github', 'repo'); // '_docdb/search/github/repo/manifest.json'
 */
export function searchManifestAt(namespace: string, type: string): string {
  return `_docdb/search/${namespace}/${type}/manifest.json`;
}

/**
 * The distinct `(namespace, type)` pairs of one or more lists, in first-seen order.
 *
 * @example
 * writtenTypes(ops, []); // [{ namespace: 'github', type: 'repo' }]
 */
export function writtenTypes(...lists: readonly (readonly TypeName[])[]): TypeName[] {
  const types = new Map<string, TypeName>();
  for (const list of lists)
    for (const o of list) types.set(`${o.namespace}/${o.type}`, { namespace: o.namespace, type: o.type });
  return [...types.values()];
}

/**
 * The keys index maintenance needs in the FIRST read round of a write touching `types`: the declaration
 * and each type's manifest. The declarations hook (declarations.ts) reads them with the schemas' keys in
 * one batched read and hands the answer to `indexChanges` (index-write.ts).
 *
 * @example
 * indexFirstReads([{ namespace: 'github', type: 'repo' }]); // ['_docdb/indexes.json', '_docdb/index/github/repo/manifest.json']
 */
export function indexFirstReads(types: Iterable<TypeName>): string[] {
  return [DECLARATION_KEY, ...[...types].map((t) => manifestPath(t.namespace, t.type))];
}

/**
 * Every key of the declarations hook's first read round: the index keys, each type's schema file, then the
 * search declaration and each type's search manifest.
 *
 * @example
 * declarationsFirstReads([{ namespace: 'github', type: 'repo' }]);
 * // ['_docdb/indexes.json', '_docdb/index/github/repo/manifest.json', '_docdb/types/github/repo.json',
 * //  '_docdb/search.json', '_docdb/search/github/repo/manifest.json']
 */
export function declarationsFirstReads(types: readonly TypeName[]): string[] {
  return [
    ...indexFirstReads(types),
    ...types.map((t) => typeDeclarationPath(t.namespace, t.type)),
    SEARCH_DECLARATION_PATH,
    ...types.map((t) => searchManifestAt(t.namespace, t.type)),
  ];
}
