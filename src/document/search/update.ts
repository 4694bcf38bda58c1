import type { TypeSearch } from './declaration.js';
import type { SearchOptions, SearchRead } from './need.js';

/** One document's change (envelope data): `before` absent = created, `after` absent = deleted. */
export interface SearchChange {
  id: string;
  before?: unknown;
  after?: unknown;
}

export function updateSearch(
  t: TypeSearch,
  read: SearchRead,
  changes: readonly SearchChange[],
  o?: SearchOptions,
): { writes: Map<string, Uint8Array>; deletes: string[] } {
  throw new Error(`updateSearch: not implemented yet (${t.type}, ${read}, ${changes.length}, ${o})`);
}

export function searchFirstPaths(t: TypeSearch, manifest: Uint8Array, changes: readonly SearchChange[]): string[] {
  throw new Error(`not implemented yet ${t.type} ${manifest.length} ${changes.length}`);
}
