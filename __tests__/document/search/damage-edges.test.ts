/**
 * Damage exactly at the edge of each check of a file read back: a posting AT the manifest's next ordinal
 * (the ordinal the next created document gets), a norm symbol one past the last level, a posting AT a
 * shard's upper bound (the next shard's first key), a term repeated, a bucket holding an id of another
 * bucket, a delta part holding the next part's entries. Each is InvalidResponse naming the damaged file —
 * never a wrong hit, and never blamed on another file.
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../../src/core/errors.js';
import { NORM_LEVELS } from '../../../src/document/search/codec.js';
import { encodeDelta } from '../../../src/document/search/delta.js';
import { loadDeltaPart, overlay } from '../../../src/document/search/delta-parts.js';
import { buildSearch, searchManifestPath, updateSearch } from '../../../src/document/search/index.js';
import { parseSearchManifest } from '../../../src/document/search/manifest.js';
import { codingOf, encodeShard, loadShard } from '../../../src/document/search/shard.js';
import { bucketOf, encodeBucket, parseBucket } from '../../../src/document/search/table.js';
import { applyUpdate, type Files, searchIndex, withDeltaParts, withFetches } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
const MANIFEST = searchManifestPath('n', 't');
const docs = Array.from({ length: 300 }, (_, i) => ({
  id: `d${String(i).padStart(3, '0')}`,
  data: { title: `alpha${i % 7} common`, body: `beta${i % 5} gamma w${i}` },
}));
const opts = { maxShardBytes: 512 };
const base = buildSearch(t, docs, opts);
const manifest = parseSearchManifest(t, base.get(MANIFEST)!);
const shardKey = (i: number) => `_docdb/search/n/t/terms/${manifest.shards[i]!.name}.txt`;

/** The error a search of `q` throws over `files` (none: fails the test). */
function errorOf(files: Files, q: string): InvalidResponse {
  let e: unknown;
  try {
    searchIndex(files, t, q);
  } catch (x) {
    e = x;
  }
  expect(e, q).toBeInstanceOf(InvalidResponse);
  return e as InvalidResponse;
}

describe('damage at the edge of a check', () => {
  it('a shard posting at the next ordinal is refused, naming the shard (not the table part it would miss)', () => {
    const files = new Map(base);
    const lines = loadShard(manifest, 0, base.get(shardKey(0))!);
    const line = lines[0]!;
    const posting = line.postings[line.postings.length - 1]!;
    line.postings.push({ ...posting, ordinal: manifest.next });
    files.set(shardKey(0), encodeShard(lines, codingOf(manifest)));
    const e = errorOf(files, line.term);
    expect(e.data.key).toBe(shardKey(0));
    expect(e.message).toMatch(/ordinal 300, not below the manifest's next 300/);
  });

  it('a shard posting whose norm is one past the last norm level is refused, naming the shard', () => {
    const files = new Map(base);
    const lines = loadShard(manifest, 0, base.get(shardKey(0))!);
    const p = lines[0]!.postings[0]!;
    p.norm = p.norm.map((n, f) => (p.tf[f]! > 0 ? NORM_LEVELS.length : n));
    files.set(shardKey(0), encodeShard(lines, codingOf(manifest)));
    const e = errorOf(files, lines[0]!.term);
    expect(e.data.key).toBe(shardKey(0));
    expect(e.message).toMatch(/norm symbol out of range/);
  });

  it("a shard holding a posting at its upper bound (the next shard's first key) is refused, naming it", () => {
    const files = new Map(base);
    const lines = loadShard(manifest, 0, base.get(shardKey(0))!);
    const upper = manifest.shards[1]!.lower!;
    const last = lines[lines.length - 1]!;
    const posting = { ...last.postings[0]!, ordinal: upper[1] };
    // The upper bound's term continues the shard's last line (a term cut over shards), or follows it.
    if (upper[0] === last.term) last.postings.push(posting);
    else lines.push({ term: upper[0], postings: [posting] });
    files.set(shardKey(0), encodeShard(lines, codingOf(manifest)));
    const e = errorOf(files, lines[0]!.term);
    expect(e.data.key).toBe(shardKey(0));
    expect(e.message).toMatch(/outside its shard/);
  });

  it('a shard repeating a line (the same term twice) is refused, naming it', () => {
    const files = new Map(base);
    const rows = new TextDecoder().decode(base.get(shardKey(0))!).split('\n');
    // The first line's head shares nothing with the term before: after it, the same text is the same term again.
    files.set(shardKey(0), new TextEncoder().encode([rows[0], ...rows].join('\n')));
    const e = errorOf(files, loadShard(manifest, 0, base.get(shardKey(0))!)[0]!.term);
    expect(e.data.key).toBe(shardKey(0));
    expect(e.message).toMatch(/terms out of order/);
  });

  it('a bucket that also lists an id of another bucket is refused by the next write reading it, naming it', () => {
    expect(manifest.buckets).toBeGreaterThan(1);
    const own = docs.find((d) => bucketOf(d.id, manifest.buckets) === 0)!;
    const foreign = docs.find((d) => bucketOf(d.id, manifest.buckets) === 1)!;
    const key = '_docdb/search/n/t/ids/0.json';
    const entries = parseBucket(manifest, 0, base.get(key)!);
    // The foreign id at its own ordinal: bucket 1 says the same, but a regrouping of the buckets could meet it twice.
    const ordinal = parseBucket(manifest, 1, base.get('_docdb/search/n/t/ids/1.json')!).get(foreign.id)!;
    entries.set(foreign.id, ordinal);
    const files = new Map(base);
    files.set(key, encodeBucket(entries));
    let e: unknown;
    try {
      applyUpdate(files, t, [{ id: own.id, before: own.data, after: { title: 'changed', body: '' } }], opts);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InvalidResponse);
    expect((e as InvalidResponse).data.key).toBe(key);
  });

  it("a delta part that also holds the next part's entries is refused by the write that reads it, naming it", () => {
    const parted = withDeltaParts(base, t, docs, opts);
    const m = parseSearchManifest(t, parted.get(MANIFEST)!);
    const partKey = (i: number) => `_docdb/search/n/t/delta/${m.deltas[i]!.name}.txt`;
    const parts = m.deltas.map((_, i) => loadDeltaPart(m, i, parted.get(partKey(i))!));
    // Two neighbouring parts with entries, the first's last term below the second's first.
    const i = parts.findIndex((p, k) => {
      const next = parts[k + 1];
      return (
        p.size > 0 && next !== undefined && next.size > 0 && [...p.keys()].sort().at(-1)! < [...next.keys()].sort()[0]!
      );
    });
    expect(i).toBeGreaterThanOrEqual(0);
    const files = new Map(parted);
    files.set(partKey(i), encodeDelta(overlay(overlay(new Map(), parts[i]!), parts[i + 1]!), m));
    // A 40-document update fills delta.txt and empties it into the parts: it reads every part.
    const more = docs.slice(200, 240).map((d) => ({ id: d.id, before: d.data, after: { title: 'zz', body: '' } }));
    let e: unknown;
    try {
      withFetches(files, (read) => updateSearch(t, read, more, opts));
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InvalidResponse);
    expect((e as InvalidResponse).data.key).toBe(partKey(i));
  });
});
