import type { TypeSearch } from './declaration.js';
import type { SearchRead } from './need.js';

export function idsOf(t: TypeSearch, ordinals: readonly number[], read: SearchRead): Map<number, string> {
  throw new Error(`not implemented yet ${t.type} ${ordinals.length} ${read}`);
}

export function searchFilesOf(t: TypeSearch, manifest: Uint8Array): string[] {
  throw new Error(`not implemented yet ${t.type} ${manifest.length}`);
}
