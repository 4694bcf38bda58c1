/**
 * The build's refusals at their exact edges: a type needing exactly `maxShards` shards is built (one more
 * is refused), and the same id given twice is refused rather than indexed as two documents.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../../src/core/errors.js';
import { buildSearch } from '../../../src/document/search/index.js';
import { zipfCorpus } from './corpus.js';
import { searchIndex } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
const shardsOf = (files: Map<string, Uint8Array>) => [...files.keys()].filter((p) => p.includes('/terms/'));

describe('the shard bound of a build', () => {
  it('builds a type needing exactly maxShards shards, and refuses it at one fewer', () => {
    const docs = zipfCorpus(60);
    const n = shardsOf(buildSearch(t, docs, { maxShardBytes: 512 })).length;
    expect(n).toBeGreaterThan(2);
    const files = buildSearch(t, docs, { maxShardBytes: 512, maxShards: n });
    expect(shardsOf(files)).toHaveLength(n);
    expect(() => buildSearch(t, docs, { maxShardBytes: 512, maxShards: n - 1 })).toThrow(InvalidConfig);
  });
});

describe('the documents of a build', () => {
  it('refuses an id given twice, naming it, rather than indexing two documents under one id', () => {
    const docs = [
      { id: 'a', data: { title: 'first copy', body: '' } },
      { id: 'b', data: { title: 'other', body: '' } },
      { id: 'a', data: { title: 'second copy', body: '' } },
    ];
    let e: unknown;
    try {
      buildSearch(t, docs);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InvalidConfig);
    expect((e as InvalidConfig).message).toMatch(/document a is given twice/);
    // One copy of each id indexes as expected.
    expect(searchIndex(buildSearch(t, docs.slice(0, 2)), t, 'copy').map((h) => h.id)).toEqual(['a']);
  });
});
