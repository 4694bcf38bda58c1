/**
 * The section's search declaration read back (`_docdb/search.json`): what `DocumentStore.searchDeclaration`
 * answers, what a commit in parts learns before it drops documents' data, and where a search starts.
 */
import type { RefStore } from '../core/refstore.js';
import { assertValidVersion, type VersionId } from '../core/version.js';
import { parseSearchDeclaration, SEARCH_DECLARATION_KEY, type SearchDeclaration } from './search/index.js';

/**
 * The search declaration at the tip (or at `version`): empty when none is declared; a damaged file is
 * `InvalidResponse` naming it.
 *
 * @example
 * const { search } = await storedSearchDeclaration(store); // [{ namespace: 'github', type: 'repo', fields: ['data.title'] }]
 */
export async function storedSearchDeclaration(
  store: RefStore,
  options: { version?: VersionId } = {},
): Promise<SearchDeclaration> {
  if (options.version !== undefined) assertValidVersion(options.version);
  const got = await store.get(SEARCH_DECLARATION_KEY, options);
  return parseSearchDeclaration(got?.value);
}
