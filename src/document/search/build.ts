import type { TypeSearch } from './declaration.js';
import type { SearchOptions } from './need.js';
import type { SearchDoc } from './text.js';

export function buildSearch(t: TypeSearch, docs: readonly SearchDoc[], o?: SearchOptions): Map<string, Uint8Array> {
  throw new Error(`buildSearch: not implemented yet (${t.type}, ${docs.length}, ${o})`);
}
