/**
 * Verification of a hit against its document (issue 42: "documents are checked to contain the words
 * they were found for"): a tampered shard that points a word at a document lacking it is caught by the
 * caller, which turns `false` into `InvalidResponse`.
 */
import { analyze } from './analyze.js';
import type { TypeSearch } from './declaration.js';
import type { SearchDoc } from './text.js';

/**
 * Whether the document's searchable text holds, for every word, one of the terms it was found for.
 *
 * @example
 * documentMatches(t, { id: 'a', data: { title: 'Git database' } }, [['git'], ['data', 'database']]); // true
 */
export function documentMatches(t: TypeSearch, doc: SearchDoc, terms: readonly (readonly string[])[]): boolean {
  const { terms: held } = analyze(t, doc);
  return terms.every((word) => word.some((term) => held.has(term)));
}
