import type { TypeSearch } from './declaration.js';
import type { SearchRead } from './need.js';

export interface ParsedSearch {
  words: string[];
}

export interface RankedHit {
  ordinal: number;
  score: number;
  fields: string[];
  terms: string[][];
}

export function parseSearchText(text: unknown): ParsedSearch {
  throw new Error(`not implemented yet ${text}`);
}

export function rankSearch(t: TypeSearch, q: ParsedSearch, read: SearchRead): { total: number; hits: RankedHit[] } {
  throw new Error(`not implemented yet ${t.type} ${q} ${read}`);
}

export function rankFirstPaths(t: TypeSearch, q: ParsedSearch, manifest: Uint8Array): string[] {
  throw new Error(`not implemented yet ${t.type} ${q} ${manifest.length}`);
}
