/**
 * Every file read back is untrusted: a damaged manifest, shard, delta part, table part or bucket is InvalidResponse
 * naming its key, never a wrong answer; a shard that points a word at a document lacking it is caught
 * by documentMatches.
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../../src/core/errors.js';
import {
  buildSearch,
  documentMatches,
  idsOf,
  parseSearchText,
  rankFirstPaths,
  rankSearch,
  searchManifestPath,
  updateSearch,
} from '../../../src/document/search/index.js';
import { type Files, withDeltaParts, withFetches } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
const docs = Array.from({ length: 300 }, (_, i) => ({
  id: `d${i}`,
  data: { title: `alpha${i % 7} common`, body: `beta${i % 5} gamma w${i}` },
}));
const base = buildSearch(t, docs, { maxShardBytes: 512 });
const MANIFEST = searchManifestPath('n', 't');
const enc = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const firstOf = (part: string) => [...base.keys()].find((p) => p.includes(part))!;

/**
 * Search 'alpha0' (the first shard's range: a write merges only a few shards, so only a search reads them
 * all) and 'common', resolve every id, then write one change: whatever reads the damaged file fails.
 */
function useAll(files: Files): void {
  for (const q of ['alpha0', 'common']) {
    withFetches(files, (read) => {
      const ranked = rankSearch(t, parseSearchText(q), read);
      return idsOf(
        t,
        ranked.hits.map((h) => h.ordinal),
        read,
      );
    });
  }
  // Deleting ten documents reads both id buckets and a table part.
  const gone = docs.slice(0, 10).map((d) => ({ id: d.id, before: d.data }));
  withFetches(files, (read) => updateSearch(t, read, gone, { maxShardBytes: 512 }));
}

function expectDamage(path: string, bytes: Uint8Array | null, from: Files = base, use = useAll): void {
  const files = new Map(from);
  if (bytes === null) files.delete(path);
  else files.set(path, bytes);
  let e: unknown;
  try {
    use(files);
  } catch (x) {
    e = x;
  }
  expect(e, path).toBeInstanceOf(InvalidResponse);
  expect((e as InvalidResponse).data.key).toBe(path);
}

describe('damaged search files', () => {
  it('the undamaged index answers', () => {
    expect(() => useAll(new Map(base))).not.toThrow();
  });

  it('a manifest that is not JSON, of the wrong shape, inconsistent, or absent', () => {
    const m = JSON.parse(text(base.get(MANIFEST)!));
    for (const bad of [
      '{',
      '[]',
      JSON.stringify({ ...m, count: -1 }),
      JSON.stringify({ ...m, count: m.count + 1 }),
      JSON.stringify({ ...m, fields: ['data.other', 'data.body'] }),
      JSON.stringify({ ...m, shards: [...m.shards].reverse() }),
      JSON.stringify({ ...m, buckets: 3 }),
      JSON.stringify({ ...m, docs: [m.count + 1, 0] }),
      JSON.stringify({ ...m, extra: 1 }),
    ]) {
      expectDamage(MANIFEST, enc(bad));
    }
    expectDamage(MANIFEST, null);
  });

  it('a shard truncated, out of order, with a posting past the table, or absent', () => {
    const key = firstOf('/terms/0.txt');
    const s = text(base.get(key)!);
    const lines = s.slice(0, -1).split('\n');
    // The first line's term shares nothing and is short: a one-symbol head (11 suffix lengths a shared length).
    const head = lines[0]!.slice(0, 1 + ((lines[0]!.charCodeAt(0) - 0x21) % 11));
    expect(head.slice(1)).toMatch(/^[a-z0-9]+$/);
    expectDamage(key, enc(s.slice(0, s.length - 3)));
    expectDamage(key, enc(`${[lines[1], lines[0], ...lines.slice(2)].join('\n')}\n`));
    expectDamage(key, enc(`${head}~~~~~~~~~~~\n`));
    expectDamage(key, enc(`${head}\u00e9\n`));
    expectDamage(key, enc(`${head}\n`));
    expectDamage(key, new Uint8Array([0xff, 0x0a]));
    expectDamage(key, null);
  });

  it('a delta that is not UTF-8, references an ordinal past the table, or is absent', () => {
    const key = '_docdb/search/n/t/delta.txt';
    expectDamage(key, new Uint8Array([0xff, 0x0a]));
    expectDamage(key, enc('!common ~~~~~~~~~~\n'));
    expectDamage(key, enc('!common'));
    expectDamage(key, null);
  });

  it('a table part or bucket that is not JSON, the wrong length, or of another bucket', () => {
    const part = firstOf('/table/0.json');
    expectDamage(part, enc('[1'));
    expectDamage(part, enc('["d0"]'));
    expectDamage(part, enc(JSON.stringify(Array(256).fill(7))));
    const bucket = firstOf('/ids/0.json');
    const other = firstOf('/ids/1.json');
    expectDamage(bucket, enc('{}'));
    expectDamage(bucket, base.get(other)!);
    expectDamage(bucket, null);
  });

  it('a table that maps a hit to another document is caught by documentMatches', () => {
    const part = firstOf('/table/0.json');
    const ids = JSON.parse(text(base.get(part)!)) as string[];
    const files = new Map(base);
    files.set(part, enc(JSON.stringify(ids.map((_, i) => ids[(i + 1) % ids.length]))));
    const q = parseSearchText('alpha3');
    const { value } = withFetches(files, (read) => {
      const ranked = rankSearch(t, q, read);
      const resolved = idsOf(
        t,
        ranked.hits.map((h) => h.ordinal),
        read,
      );
      return ranked.hits.map((h) => ({ id: resolved.get(h.ordinal)!, terms: h.terms }));
    });
    const byId = new Map(docs.map((d) => [d.id, d]));
    const verdicts = value.map((h) => documentMatches(t, byId.get(h.id)!, h.terms));
    expect(verdicts.filter((v) => !v).length).toBeGreaterThan(0);
    // A verdict is false exactly for the documents whose words lack every term the hit was found for
    // ('alpha3' matches alpha0..alpha6: one edit away).
    value.forEach((h, i) => {
      const d = byId.get(h.id)!.data as { title: string; body: string };
      const words = `${d.title} ${d.body}`.split(' ');
      expect(verdicts[i]).toBe(h.terms.every((found) => found.some((term) => words.includes(term))));
    });
    // Untampered, every hit verifies.
    const clean = withFetches(base, (read) => rankSearch(t, q, read)).value.hits;
    const cleanIds = withFetches(base, (read) =>
      idsOf(
        t,
        clean.map((h) => h.ordinal),
        read,
      ),
    ).value;
    expect(clean.every((h) => documentMatches(t, byId.get(cleanIds.get(h.ordinal)!)!, h.terms))).toBe(true);
  });

  describe('with delta parts', () => {
    const parted = withDeltaParts(base, t, docs, { maxShardBytes: 512 });
    const m = JSON.parse(text(parted.get(MANIFEST)!));
    const queried = rankFirstPaths(t, parseSearchText('common'), parted.get(MANIFEST)!).filter((p) =>
      p.includes('/delta/'),
    );
    /** A query of 'common' reads its part; a 40-document update empties delta.txt into every part. */
    const useParts = (files: Files) => {
      withFetches(files, (read) => rankSearch(t, parseSearchText('common'), read));
      const more = docs.slice(200, 240).map((d) => ({ id: d.id, before: d.data, after: { title: 'zz', body: '' } }));
      withFetches(files, (read) => updateSearch(t, read, more, { maxShardBytes: 512 }));
    };

    it('the undamaged index has parts, and answers', () => {
      expect(m.deltas.length).toBeGreaterThan(1);
      // 'common' is in every document: its postings span shards, so maybe two parts — not all.
      expect(queried.length).toBeGreaterThan(0);
      expect(queried.length).toBeLessThan(m.deltas.length);
      expect(() => useParts(new Map(parted))).not.toThrow();
    });

    it('a manifest whose parts are out of order, unnumbered, or do not start from ""', () => {
      const [first, ...rest] = m.deltas as { name: string; lower: unknown }[];
      for (const deltas of [
        [...m.deltas].reverse(),
        [{ ...first, name: 'x' }, ...rest],
        [{ ...first, name: '64' }, ...rest],
        [{ ...first, lower: ['a', 0] }, ...rest],
        [first, { ...rest[0], name: first!.name }, ...rest.slice(1)],
        'parts',
      ]) {
        expectDamage(MANIFEST, enc(JSON.stringify({ ...m, deltas })), parted, useParts);
      }
    });

    it('a part that is not UTF-8, holds an entry outside its range, or is absent', () => {
      const key = queried[0]!;
      const other = m.deltas
        .map((d: { name: string }) => `_docdb/search/n/t/delta/${d.name}.txt`)
        .find((p: string) => p !== key && parted.get(p)!.length > 0);
      expectDamage(key, new Uint8Array([0xff, 0x0a]), parted, useParts);
      expectDamage(key, enc('!common ~~~~~~~~~~\n'), parted, useParts);
      // Another part's entries are outside this part's range.
      expectDamage(key, parted.get(other)!, parted, useParts);
      expectDamage(key, null, parted, useParts);
      // A part the query does not read is still checked by the write that empties delta.txt into it.
      expectDamage(other, null, parted, useParts);
    });
  });
});
