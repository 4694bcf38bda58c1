/**
 * What a write checks before it changes the id files: one change per id; a deleted document must be at its
 * ordinal in the table (else the write would clear another document's entry) and a created one's ordinal
 * must be free there (else it would overwrite one); and ids sharing long starts (front coded in the buckets
 * up to 61 code units) round-trip through a write.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse } from '../../../src/core/errors.js';
import { buildSearch, updateSearch } from '../../../src/document/search/index.js';
import { applyUpdate, oracle, sameHits, searchIndex, withFetches } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title'] };
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

describe('a write checks its changes', () => {
  it('two changes of one id are InvalidConfig naming the second', () => {
    const files = buildSearch(t, [{ id: 'a', data: { title: 'one' } }]);
    const changes = [
      { id: 'a', before: { title: 'one' }, after: { title: 'two' } },
      { id: 'a', before: { title: 'two' }, after: { title: 'three' } },
    ];
    let e: unknown;
    try {
      withFetches(files, (read) => updateSearch(t, read, changes));
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InvalidConfig);
    expect((e as InvalidConfig).data.field).toBe('changes[1].id');
  });
});

describe('a write checks the table before it frees or takes an ordinal', () => {
  it('a table part that still holds an id at a freed ordinal refuses the create that takes it, naming the part', () => {
    const docs = ['a', 'b', 'c'].map((id) => ({ id, data: { title: `word ${id}x` } }));
    const files = buildSearch(t, docs);
    applyUpdate(files, t, [{ id: 'b', before: docs[1]!.data }]);
    const part = '_docdb/search/n/t/table/0.json';
    expect(JSON.parse(dec(files.get(part)!))).toEqual(['a', null, 'c']);
    files.set(part, enc(`${JSON.stringify(['a', 'b', 'c'])}\n`));
    let e: unknown;
    try {
      applyUpdate(files, t, [{ id: 'd', after: { title: 'word dx' } }]);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InvalidResponse);
    expect((e as InvalidResponse).data.key).toBe(part);
  });

  it('a table part whose ids were swapped refuses the delete, naming the part, rather than drop another document', () => {
    const docs = ['a', 'b', 'c'].map((id) => ({ id, data: { title: `word ${id}x` } }));
    const files = buildSearch(t, docs);
    const part = '_docdb/search/n/t/table/0.json';
    expect(JSON.parse(dec(files.get(part)!))).toEqual(['a', 'b', 'c']);
    files.set(part, enc(`${JSON.stringify(['b', 'a', 'c'])}\n`));
    let e: unknown;
    try {
      applyUpdate(files, t, [{ id: 'a', before: docs[0]!.data }]);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InvalidResponse);
    expect((e as InvalidResponse).data.key).toBe(part);
  });
});

describe('ids sharing a long start', () => {
  it('round-trip through the buckets when they share more code units than a head symbol counts (61)', () => {
    const stem = `org/${'x'.repeat(70)}/`;
    const docs = Array.from({ length: 6 }, (_, i) => ({ id: `${stem}${i}`, data: { title: `shared word${i}` } }));
    const files = buildSearch(t, docs);
    // Delete one and update another: both read their bucket back after a write rewrote it.
    applyUpdate(files, t, [{ id: `${stem}1`, before: docs[1]!.data }]);
    applyUpdate(files, t, [{ id: `${stem}2`, before: docs[2]!.data, after: { title: 'renamed' } }]);
    const now = [docs[0]!, { id: `${stem}2`, data: { title: 'renamed' } }, ...docs.slice(3)];
    for (const q of ['shared', 'renamed', 'word4'])
      expect(sameHits(searchIndex(files, t, q), oracle(t, now, q)), q).toBeNull();
  });
});
