import type { TypeSearch } from './declaration.js';
import type { SearchDoc } from './text.js';

export function documentMatches(t: TypeSearch, doc: SearchDoc, terms: readonly (readonly string[])[]): boolean {
  throw new Error(`not implemented yet ${t.type} ${doc.id} ${terms.length}`);
}
