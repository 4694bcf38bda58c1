/**
 * What one document contributes to its type's search index: per term, its frequency in each field, and
 * each field's length in tokens. Build, update, verification and the test oracle all use it, so they
 * read the same text the same way.
 */
import type { TypeSearch } from './declaration.js';
import { fieldText, type SearchDoc, tokenize } from './text.js';

export interface Analyzed {
  /** term → frequency per field (declaration order; 0 = absent). */
  terms: Map<string, number[]>;
  /** Tokens per field. */
  lengths: number[];
}

/**
 * Terms and field lengths of a document.
 *
 * @example
 * analyze({ namespace: 'n', type: 't', fields: ['data.title'] }, { id: 'a', data: { title: 'To be or not to be' } });
 * // { terms: Map { 'to' => [2], 'be' => [2], 'or' => [1], 'not' => [1] }, lengths: [6] }
 */
export function analyze(t: TypeSearch, doc: SearchDoc): Analyzed {
  const terms = new Map<string, number[]>();
  const lengths = t.fields.map((field, f) => {
    const tokens = tokenize(fieldText(doc, field));
    for (const term of tokens) {
      let tf = terms.get(term);
      if (!tf) {
        tf = new Array<number>(t.fields.length).fill(0);
        terms.set(term, tf);
      }
      tf[f]!++;
    }
    return tokens.length;
  });
  return { terms, lengths };
}
