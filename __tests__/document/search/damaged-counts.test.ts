/**
 * Numbers read back from the search files are untrusted like the rest (issue 42: "a tampered shard is
 * InvalidResponse, never a wrong result"): a manifest that counts fewer documents holding a field than a term's
 * postings name would give a negative idf — a wrong ranking, not an answer — and an id bucket whose ordinals hold
 * a character outside the posting alphabet would map an id to an ordinal it never had.
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../../src/core/errors.js';
import {
  buildSearch,
  parseSearchText,
  rankSearch,
  searchManifestPath,
  updateSearch,
} from '../../../src/document/search/index.js';
import { bucketPath } from '../../../src/document/search/paths.js';
import { bucketOf } from '../../../src/document/search/table.js';
import { withFetches } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
const docs = Array.from({ length: 10 }, (_, i) => ({ id: `d${i}`, data: { title: `common w${i}`, body: `b${i}` } }));
const MANIFEST = searchManifestPath('n', 't');
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const enc = (s: string) => new TextEncoder().encode(s);

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('counts read back from the search files', () => {
  it('a manifest counting fewer titled documents than hold a title term is InvalidResponse naming it', () => {
    const files = buildSearch(t, docs);
    const q = parseSearchText('common');
    expect(withFetches(files, (read) => rankSearch(t, q, read)).value.total).toBe(10);
    const m = JSON.parse(text(files.get(MANIFEST)!));
    expect(m.docs).toEqual([10, 10]);
    // Still consistent on its own (2 ≤ count, lengths ≥ docs): only the postings show the damage.
    files.set(MANIFEST, enc(JSON.stringify({ ...m, docs: [2, 10] })));
    const e = thrown(() => withFetches(files, (read) => rankSearch(t, q, read)));
    expect(e).toBeInstanceOf(InvalidResponse);
    expect((e as InvalidResponse).data.key).toBe(MANIFEST);
    expect((e as Error).message).toMatch(/"common" is in 10 documents' data.title/);
  });

  it('an id bucket whose ordinals hold a character below the posting alphabet is InvalidResponse naming it', () => {
    const files = buildSearch(t, docs);
    const bucket = [...files.keys()].find((p) => p.includes('/ids/'))!;
    const v = JSON.parse(text(files.get(bucket)!)) as string[];
    expect(v.length).toBeGreaterThan(1);
    // A document of that bucket: updating it reads the bucket to find its ordinal.
    const { buckets } = JSON.parse(text(files.get(MANIFEST)!));
    const first = docs.find((d) => bucketPath('n', 't', bucketOf(d.id, buckets)) === bucket)!;
    const damaged = new Map(files);
    damaged.set(bucket, enc(JSON.stringify([` ${v[0]!.slice(1)}`, ...v.slice(1)])));
    const change = [{ id: first.id, before: first.data, after: { title: 'other', body: '' } }];
    // Undamaged, the same update goes through.
    expect(() => withFetches(new Map(files), (read) => updateSearch(t, read, change))).not.toThrow();
    const e = thrown(() => withFetches(damaged, (read) => updateSearch(t, read, change)));
    expect(e).toBeInstanceOf(InvalidResponse);
    expect((e as InvalidResponse).data.key).toBe(bucket);
  });
});
