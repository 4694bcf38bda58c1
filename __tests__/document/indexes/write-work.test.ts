/**
 * A one-document write's index work follows its change, not the size of its type (issue 42): counted
 * through src/document/indexes/work.ts — manifests and parts parsed, rows decoded and rows serialized —
 * never timed. The same put on a type 10× bigger must do no more of any of them.
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../../src/core/errors.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import { buildIndex } from '../../../src/document/indexes/build.js';
import { encodePart, parseManifest, parsePart } from '../../../src/document/indexes/format.js';
import { manifestPath } from '../../../src/document/indexes/paths.js';
import { encodeRow, rowBytes } from '../../../src/document/indexes/rows.js';
import { shaToText } from '../../../src/document/indexes/sha-text.js';
import { updateIndex } from '../../../src/document/indexes/update.js';
import { type IndexWork, measureIndexWork } from '../../../src/document/indexes/work.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { doc, enc } from './helpers.js';
import { assertIndexExact } from './index-oracle.js';

const REPO = { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] };
const LANGS = ['TS', 'Go', 'Rust', 'C'];
const repo = (i: number, stars: number) => ({
  namespace: 'github',
  type: 'repo',
  id: `o/r${i}`,
  data: { language: LANGS[i % LANGS.length], stars },
});

/** A section holding an indexed type of `n` documents (parts of 2 KiB: a few dozen rows each). */
async function typeOf(n: number) {
  const store = new MemoryRefStore();
  const docs = new DocumentStore(store, { index: { maxPartBytes: 2048 } });
  await docs.putMany(
    Array.from({ length: n }, (_, i) => repo(i, (i * 7919) % 1000)),
    { indexes: [REPO] },
  );
  return { store, docs };
}

/** The index work of three 1-document puts: a value moved, a value kept (new blob), a new document. */
async function putsWork(n: number): Promise<IndexWork[]> {
  const { store, docs } = await typeOf(n);
  const out: IndexWork[] = [];
  for (const d of [
    repo(7, 5),
    { ...repo(8, (8 * 7919) % 1000), data: { ...repo(8, 0).data, stars: (8 * 7919) % 1000, note: 'x' } },
    repo(n + 1, 500),
  ]) {
    out.push((await measureIndexWork(() => docs.put(d))).work);
  }
  await assertIndexExact(store);
  return out;
}

describe('index work of a 1-document write', () => {
  it('is no more on a type 10× bigger: one manifest parse, the touched parts, only the changed rows serialized', async () => {
    const small = await putsWork(300);
    const big = await putsWork(3000);
    big.forEach((b, k) => {
      const s = small[k]!;
      expect(b.manifestsParsed).toBe(1);
      expect(b.partsParsed).toBeLessThanOrEqual(Math.max(s.partsParsed, 4));
      // A part holds at most 2 KiB of rows (~50): the rows decoded are those of the parts touched.
      expect(b.rowsDecoded).toBeLessThanOrEqual(Math.max(s.rowsDecoded, 4 * 60));
      // Serialized anew: the old and new row per field (2 fields), once for the plan and once for the update.
      expect(b.rowsEncoded).toBeLessThanOrEqual(8);
    });
  });
});

describe('a part edited in place (binary search, no sort of the part)', () => {
  const decl = { version: 1 as const, indexes: [{ namespace: 'g', type: 'repo', fields: ['data.stars'] }] };
  const docs = Array.from({ length: 30 }, (_, i) => doc('g', 'repo', `r${i}`, { stars: i }));
  const files = buildIndex(decl, docs, { maxPartBytes: 1024 });

  it('refuses to add a row the part already holds: the index contradicts the write, so it is rebuilt', () => {
    const again = docs[4]!;
    const change = { namespace: 'g', type: 'repo', id: again.id, after: { blobSha: again.blobSha, data: again.data } };
    expect(() => updateIndex(decl, (p) => files.get(p), [change], { maxPartBytes: 1024 })).toThrow(InvalidResponse);
    expect(() => updateIndex(decl, (p) => files.get(p), [change], { maxPartBytes: 1024 })).toThrow(
      /already holds a row of "r4" that the write adds; the index must be rebuilt/,
    );
  });

  it('keeps the rows it did not change byte for byte, serializing only the changed one', async () => {
    const d = docs[9]!;
    const after = doc('g', 'repo', d.id, { stars: 9.5 });
    const change = { namespace: 'g', type: 'repo', id: d.id, before: d, after };
    const { value: u, work } = await measureIndexWork(() =>
      updateIndex(decl, (p) => files.get(p), [change], { maxPartBytes: 1024 }),
    );
    expect(work.rowsEncoded).toBe(2); // the row removed and the row added, nothing else
    const written = [...u.writes.values()].map((b) => new TextDecoder().decode(b)).join('');
    const before = [...files.values()].map((b) => new TextDecoder().decode(b)).join('');
    for (const line of before.split('\n').filter((l) => l.startsWith('["r1"'))) expect(written).toContain(line);
  });

  it('re-sends a row read back as written only when it is in canonical form: a spaced row is serialized anew', () => {
    const m = parseManifest(files.get(manifestPath('g', 'repo'))!, 'g', 'repo');
    const sha = shaToText(docs[0]!.blobSha);
    const spaced = `[0, "r0", "${sha}", 0]\n[1,"1","${sha}",1]\n[1,"é","${sha}",2]\n`;
    const rows = parsePart(
      { ...m, runs: [{ ...m.runs[0]!, parts: [m.runs[0]!.parts[0]!] }] },
      0,
      0,
      enc.encode(spaced),
    );
    expect(rows.map((r) => r.id)).toEqual(['r0', 'r1', 'ré']);
    expect(rows.map((r) => r.blobSha)).toEqual([docs[0]!.blobSha, docs[0]!.blobSha, docs[0]!.blobSha]);
    expect(new TextDecoder().decode(encodePart(rows))).toBe(
      `[0,"r0","${sha}",0]\n[1,"1","${sha}",1]\n[1,"é","${sha}",2]\n`,
    );
    // The size bound of each row is its standalone line's, whether measured from the read or serialized.
    expect(rows.map(rowBytes)).toEqual(
      rows.map((r) => enc.encode(encodeRow({ ...r, line: undefined, bytes: undefined })).length + 1),
    );
  });
});
