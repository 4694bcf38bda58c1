/**
 * The build's stored bytes are pinned: buildSearch was rewritten for CPU (typed arrays instead of one
 * object per posting) and must write byte-identical files. The SHA-256s below were taken from the
 * object-per-posting build (src of commit 3a42937) over seeded corpora; any change of the stored format or of
 * the build's output shows here first.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildSearch, type SearchDoc } from '../../../src/document/search/index.js';
import { zipfCorpus } from './corpus.js';

/** One digest over every file: path, length and bytes, in path order. */
function digestOf(files: Map<string, Uint8Array>): string {
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

const T2 = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
const T3 = { namespace: 'n', type: 'u', fields: ['id', 'data.title', 'data.body'] };

describe('buildSearch stored bytes', () => {
  it('are those of the object-per-posting build for a Zipf corpus of 3,000 documents', () => {
    expect(digestOf(buildSearch(T2, zipfCorpus(3000)))).toBe(
      '0fb1e35206181bbb533cec440170d45e62c9e5c13047a8728cd70b9d9dd96624',
    );
  });

  it('are those of the object-per-posting build with small shards (terms split across shards)', () => {
    // 1 KiB shards: frequent terms' postings span several shards, exercising the split path.
    expect(digestOf(buildSearch(T2, zipfCorpus(800, 7), { maxShardBytes: 1024, maxShards: 4096 }))).toBe(
      'df53188ea76aa21f14de5c023006597ddf7a9abc98f9e9b01bf7b97f365c1817',
    );
  });

  it('are those of the object-per-posting build for non-ASCII text over 3 fields', () => {
    expect(digestOf(buildSearch(T3, unicodeDocs(), { maxShardBytes: 8192, maxShards: 4096 }))).toBe(
      'b7576e828407d453cf8d22ce664298ced78fc37cf4c87a51f9dcda110742b8e8',
    );
  });

  it('are those of the object-per-posting build for ASCII text read in place (case, digits, long runs)', () => {
    expect(digestOf(buildSearch(T3, asciiDocs(), { maxShardBytes: 2048, maxShards: 4096 }))).toBe(
      '87138ab4ceae78f9a43a55847a9c00bfc50dfd6ce927a4352e2ed3566fa2a0ee',
    );
  });

  it('are those of the object-per-posting build for no documents', () => {
    expect(digestOf(buildSearch(T2, []))).toBe('857a7774520ba056bc589dffad8a41dbadf0702bce77c3cf14d3f4e4ab7c7bff');
  });
});
