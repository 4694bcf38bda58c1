/**
 * Stored format 2 (front-coded ids, base64url SHAs) replaced format 1 (`[id, blobSha hex, values…]`). A
 * section indexed by an older docdb keeps answering queries — format 1 is still read — and the next write of
 * the type rewrites its index whole in format 2, from one run of its own rows, exactly.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../src/document/document-store.js';
import {
  FORMAT_VERSION,
  type Manifest,
  manifestPath,
  parseManifest,
  parsePart,
} from '../../../src/document/indexes/index.js';
import { partPath } from '../../../src/document/indexes/paths.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { assertIndexExact } from './index-oracle.js';

const REPO = { namespace: 'github', type: 'repo', fields: ['data.language', 'data.topics'] };
const repo = (i: number) => ({
  namespace: 'github',
  type: 'repo',
  id: `o/r${i}`,
  data: { language: ['TS', 'Go', 'Rust'][i % 3], topics: [`t${i % 4}`, 'all'] },
});
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** Rewrite the stored index as format 1 would have written it (the rows of format 2, spelled the old way). */
async function downgrade(store: MemoryRefStore): Promise<void> {
  const read = async (k: string) => (await store.get(k))!.value;
  const mpath = manifestPath('github', 'repo');
  const m = parseManifest(await read(mpath), 'github', 'repo');
  const changes: { op: 'put'; key: string; value: string }[] = [];
  for (const [fi, run] of m.runs.entries()) {
    for (const [i, p] of run.parts.entries()) {
      const key = partPath('github', 'repo', run.field, p.name);
      const rows = parsePart(m, fi, i, await read(key));
      const v1 = rows.map((r) => JSON.stringify([r.id, r.blobSha, ...r.values, ...(r.element ? [r.key] : [])]));
      changes.push({ op: 'put', key, value: v1.map((l) => `${l}\n`).join('') });
    }
  }
  const old: Manifest = { ...m, version: 1 };
  changes.push({ op: 'put', key: mpath, value: `${JSON.stringify(old)}\n` });
  await store.commit(changes);
}

describe('an index stored in format 1', () => {
  it('still answers queries, then the next write rewrites it in format 2, exactly', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store, { index: { maxPartBytes: 600 } });
    await docs.putMany(
      Array.from({ length: 60 }, (_, i) => repo(i)),
      { indexes: [REPO] },
    );
    const q = {
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.topics', op: 'contains' as const, value: 't1' }],
      orderBy: { field: 'data.language', direction: 'asc' as const },
    };
    const now = await docs.query(q);
    await downgrade(store);
    const mpath = manifestPath('github', 'repo');
    expect(text((await store.get(mpath))!.value)).toContain('"version":1');
    const old = await docs.query(q);
    expect(old.answeredBy).toBe('index');
    expect(old.rows).toEqual(now.rows); // blob SHAs and values read from format 1 rows
    expect(old.documents?.map((d) => d.data)).toEqual(now.documents?.map((d) => d.data));

    await docs.put({ ...repo(7), data: { language: 'Zig', topics: ['t1'] } });
    const m = parseManifest((await store.get(mpath))!.value, 'github', 'repo');
    expect(m.version).toBe(FORMAT_VERSION);
    const firstPart = partPath('github', 'repo', 'data.language', m.runs[0]!.parts[0]!.name);
    expect(text((await store.get(firstPart))!.value)).toMatch(/^\[0,"o\/r\d+","[A-Za-z0-9_-]{27}",/);
    expect(await assertIndexExact(store)).toBe(1);
    const after = await docs.query(q);
    expect(after.rows.map((r) => r.id)).toContain('o/r7');
  });
});
