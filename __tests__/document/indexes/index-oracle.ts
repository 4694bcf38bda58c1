/**
 * The property every write path must keep (issue 28, item 2): the index stored in a commit is the index
 * recomputed from that commit's documents. Compared by content, not bytes — an incremental update splits
 * and merges parts differently from a fresh build — per run: every part parses (in order, within its
 * separators), the concatenated rows equal the rows a fresh build makes, the count is the document count,
 * and the field's value counts equal a fresh build's.
 */
import { expect } from 'vitest';
import type { RefStore } from '../../../src/core/refstore.js';
import { decodeEnvelope } from '../../../src/document/envelope.js';
import { parseKey } from '../../../src/document/identity.js';
import { countsPath, parseCounts } from '../../../src/document/indexes/counts.js';
import {
  buildTypeIndex,
  DECLARATION_KEY,
  INDEX_ROOT,
  manifestPath,
  parseDeclaration,
  parseManifest,
  parsePart,
} from '../../../src/document/indexes/index.js';
import { partPath } from '../../../src/document/indexes/paths.js';
import { encodeRow } from '../../../src/document/indexes/rows.js';

const lines = (rows: { line?: string }[]) => rows.map((r) => encodeRow(r as never));

/** Assert the index at `version` (default: the tip) is exact; returns how many types were checked. */
export async function assertIndexExact(store: RefStore, version?: string): Promise<number> {
  const at = version ?? (await store.head());
  if (at === null) return 0;
  const listed = await store.list({ version: at });
  const files = new Map(listed.entries.map((e) => [e.key, e.blobSha]));
  const read = async (key: string) => (await store.get(key, { version: at }))?.value;
  const declaration = parseDeclaration(await read(DECLARATION_KEY));
  const listedByManifests = new Set<string>();
  for (const t of declaration.indexes) {
    const mpath = manifestPath(t.namespace, t.type);
    listedByManifests.add(mpath);
    const docs = [];
    for (const e of listed.entries) {
      const id = parseKey(e.key);
      if (!id || id.namespace !== t.namespace || id.doc_type !== t.type) continue;
      docs.push({ id: id.id, blobSha: e.blobSha, data: decodeEnvelope((await read(e.key))!, at).data });
    }
    const fresh = buildTypeIndex(t, docs, { maxPartBytes: 1 << 20 });
    const mbytes = await read(mpath);
    expect(mbytes, `manifest of ${t.namespace}/${t.type}`).toBeDefined();
    const m = parseManifest(mbytes!, t.namespace, t.type);
    expect(m.fields, `fields of ${t.namespace}/${t.type}`).toEqual(t.fields);
    expect(m.count, `count of ${t.namespace}/${t.type}`).toBe(docs.length);
    for (const [fi, run] of m.runs.entries()) {
      const stored: string[] = [];
      for (const [i, p] of run.parts.entries()) {
        const path = partPath(t.namespace, t.type, run.field, p.name);
        listedByManifests.add(path);
        const bytes = await read(path);
        expect(bytes, `part ${path}`).toBeDefined();
        stored.push(...lines(parsePart(m, fi, i, bytes!)));
      }
      const expected = fresh.manifest.runs[fi]!.parts.flatMap((p, i) =>
        lines(parsePart(fresh.manifest, fi, i, fresh.files.get(partPath(t.namespace, t.type, run.field, p.name))!)),
      );
      expect(stored, `run ${run.field} of ${t.namespace}/${t.type}`).toEqual(expected);
      // Its value counts: exactly what a fresh build counts (counts.ts), for this manifest's count.
      const cpath = countsPath(t.namespace, t.type, run.field);
      listedByManifests.add(cpath);
      const cbytes = await read(cpath);
      expect(cbytes, `counts ${cpath}`).toBeDefined();
      expect(parseCounts(cbytes!, t.namespace, t.type, run.field, m.count), `counts of ${run.field}`).toEqual(
        parseCounts(fresh.files.get(cpath)!, t.namespace, t.type, run.field, docs.length),
      );
    }
  }
  // No index file that no manifest lists (a dropped type's, a merged part's).
  for (const key of files.keys()) {
    if (key.startsWith(INDEX_ROOT)) expect(listedByManifests.has(key), `stray index file ${key}`).toBe(true);
  }
  return declaration.indexes.length;
}
