/**
 * A typo candidate keeps the word's first TWO characters (docs/search.md): a term one edit away whose second
 * letter differs is no match — even when it lies in a shard the query reads.
 */
import { describe, expect, it } from 'vitest';
import { buildSearch } from '../../../src/document/search/index.js';
import { oracle, sameHits, searchIndex } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title'] };

describe('one-edit typos keep the first two characters', () => {
  it('"search" finds "seerch" and "searh", not "sarch" (an edit at the second letter) nor "aearch"', () => {
    const docs = [
      { id: 'exact', data: { title: 'search' } },
      { id: 'subst', data: { title: 'seerch' } },
      { id: 'delete', data: { title: 'searh' } },
      { id: 'second', data: { title: 'sarch' } },
      { id: 'first', data: { title: 'aearch' } },
      { id: 'second-insert', data: { title: 'sxearch' } },
    ];
    // One shard: every term is in what the query reads, so only the matching rule decides.
    const files = buildSearch(t, docs);
    expect([...files.keys()].filter((p) => p.includes('/terms/'))).toHaveLength(1);
    const hits = searchIndex(files, t, 'search');
    expect(hits.map((h) => h.id).sort()).toEqual(['delete', 'exact', 'subst']);
    expect(sameHits(hits, oracle(t, docs, 'search'))).toBeNull();
  });
});
