/**
 * The small documents of bench/indexes.ts `--text 100` (≈ 240 bytes each) with their index of 2 fields, shared
 * by the tests of what an index costs a first write (derived-packing, index-first-write-small-docs).
 */
import type { DocumentStore } from '../../src/document/document-store.js';

const LANGS = ['TypeScript', 'Go', 'Rust', 'Python', 'C', 'Java', 'Ruby'];

/** The index of the items: 2 fields. */
export const ITEM_INDEX = { namespace: 'bench', type: 'item', fields: ['data.stars', 'data.language'] };

/** Items 0..n-1: `language` cycles through 7 (item i is Go when i % 7 === 1). */
export const smallItems = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    namespace: 'bench',
    type: 'item',
    id: `g${i % 50}/item-${i}`,
    data: { i, language: LANGS[i % 7], stars: (i * 7919) % 1000, text: 'x'.repeat(100) },
  }));

/** The Go items' stars, which must come from the index. */
export function goStars(d: DocumentStore) {
  return d.query({
    namespace: 'bench',
    type: 'item',
    where: [{ field: 'data.language', op: '=', value: 'Go' }],
    fields: ['data.stars'],
  });
}
