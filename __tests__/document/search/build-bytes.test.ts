/**
 * The build's stored bytes are pinned: buildSearch cuts and encodes shards from flat typed arrays
 * (build-shards.ts) and must write what the object-per-posting path — `chunkLines` and `encodeShard`,
 * which every write uses — writes from the same postings. Each corpus is checked both ways: its shards
 * re-cut and re-encoded through the object path are byte-identical, and the SHA-256 over every file is
 * pinned (taken at stored format 2, when both paths were checked equal), so any change of the stored
 * format or of the build's output shows here first.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chunkLines, FILL } from '../../../src/document/search/chunk.js';
import {
  buildSearch,
  type SearchDoc,
  searchManifestPath,
  type TypeSearch,
} from '../../../src/document/search/index.js';
import { parseSearchManifest } from '../../../src/document/search/manifest.js';
import { codingOf, encodeShard, type Line, loadShard } from '../../../src/document/search/shard.js';
import { zipfCorpus } from './corpus.js';

/** One digest over every file: path, length and bytes, in path order. */
function digestOf({ files }: { files: Map<string, Uint8Array> }): string {
  const h = createHash('sha256');
  for (const path of [...files.keys()].sort()) {
    const bytes = files.get(path)!;
    h.update(`${path}\n${bytes.length}\n`);
    h.update(bytes);
  }
  return h.digest('hex');
}

/** Text the ASCII fast path does not take: diacritics, CJK, ligatures, emoji, long runs, tf > 1. */
function unicodeDocs(): SearchDoc[] {
  const words = ['Crème', 'brûlée', '東京', 'タワー', 'ﬁle', '①', 'naïve', 'Ünïcödé', '🎉x', 'Straße', 'ǅemal'];
  return Array.from({ length: 300 }, (_, i) => ({
    id: `u/${(i * 7919) % 1000}-${i}`,
    data: {
      title: `${words[i % words.length]} ${words[(i * 3) % words.length]} ${'z'.repeat(60 + (i % 10))} ${i}`,
      body: { text: `${words[(i * 5) % words.length]} `.repeat(1 + (i % 4)), n: i / 3, tags: ['a', 'B', i % 2 === 0] },
    },
  }));
}

/** ASCII text the scanner reads in place: upper case, digits, punctuation, runs of 64 and 65 characters. */
function asciiDocs(): SearchDoc[] {
  const words = ['Alpha', 'BETA', 'gamma42', 'x', '2024', "don't", 'e-mail', 'snake_case', 'CamelCase', 'a.b.c'];
  return Array.from({ length: 400 }, (_, i) => ({
    id: `a/${(i * 104_729) % 997}-${i}`,
    data: {
      title: `${words[i % words.length]} ${words[(i * 7) % words.length]}!! ${'Q'.repeat(63 + (i % 4))} ${'k'.repeat(i % 5)}`,
      body: [
        `${words[(i * 3) % words.length]} `.repeat(1 + (i % 5)),
        i * 1.5,
        { z: 'Zed zed ZED', y: [i % 3 === 0, 'tail'] },
      ],
    },
  }));
}

/**
 * The build of `t` over `docs`, after checking that the object path writes the same shards: every line
 * parsed back (a term split over shards joined again), cut by `chunkLines` and encoded by `encodeShard`.
 */
function checkedBuild(t: TypeSearch, docs: SearchDoc[], o?: { maxShardBytes: number; maxShards: number }) {
  const files = buildSearch(t, docs, o);
  const m = parseSearchManifest(t, files.get(searchManifestPath(t.namespace, t.type))!);
  const shards = m.shards.map((s) => files.get(`_docdb/search/${t.namespace}/${t.type}/terms/${s.name}.txt`)!);
  const lines: Line[] = [];
  let splits = 0;
  for (const [i, bytes] of shards.entries()) {
    for (const l of loadShard(m, i, bytes)) {
      const last = lines[lines.length - 1];
      if (last?.term === l.term) {
        last.postings.push(...l.postings);
        splits++;
      } else lines.push(l);
    }
  }
  const again = chunkLines(lines, codingOf(m), Math.floor(FILL * (o?.maxShardBytes ?? 131072)));
  expect(again.map((c) => Buffer.from(encodeShard(c, codingOf(m))).toString('hex'))).toEqual(
    shards.map((b) => Buffer.from(b).toString('hex')),
  );
  return { files, splits };
}

const T2 = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
const T3 = { namespace: 'n', type: 'u', fields: ['id', 'data.title', 'data.body'] };

describe('buildSearch stored bytes', () => {
  it('equal the object-per-posting path and their pin for a Zipf corpus of 3,000 documents', () => {
    expect(digestOf(checkedBuild(T2, zipfCorpus(3000)))).toBe(
      '7b239948d6f5f79eedbece31de2b169c5aa2139c3613d0db72202f5966fe8bf0',
    );
  });

  it('equal the object-per-posting path and their pin with small shards (terms split across shards)', () => {
    // 1 KiB shards: frequent terms' postings span several shards, exercising the split path.
    const built = checkedBuild(T2, zipfCorpus(800, 7), { maxShardBytes: 1024, maxShards: 4096 });
    expect(built.splits).toBeGreaterThan(5);
    expect(digestOf(built)).toBe('a68d9cdb0cc1804894dafaa8b7fb129eb2ad24ad320b96c57e9e97486859200f');
  });

  it('equal the object-per-posting path and their pin for non-ASCII text over 3 fields', () => {
    expect(digestOf(checkedBuild(T3, unicodeDocs(), { maxShardBytes: 8192, maxShards: 4096 }))).toBe(
      '6fa2c7b027149fb76acae033057d521679a0541af5d13fb03d629b248c6c2fda',
    );
  });

  it('equal the object-per-posting path and their pin for ASCII text read in place (case, digits, long runs)', () => {
    expect(digestOf(checkedBuild(T3, asciiDocs(), { maxShardBytes: 2048, maxShards: 4096 }))).toBe(
      '0a0a39bde739df3dbb01db107701b8c55ae249e8e2875c3eedd149defc2577e5',
    );
  });

  it('equal the object-per-posting path and their pin for no documents', () => {
    expect(digestOf(checkedBuild(T2, []))).toBe('1cf293548f134b67049534f5fc2b512b305094cdebeb7f9e7534f935a9e092ea');
  });
});
