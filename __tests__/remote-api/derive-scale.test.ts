/**
 * Issue 28's write budget on the GitHub API store: "put of 1 document into an indexed 100,000-document section:
 * ≤ 8 requests, ≤ 1.5 MB uploaded" — counted at the transport (requests, request-body bytes) against the
 * emulator, through `DocumentStore.put` (whose derive hook keeps the index, src/document/index-write.ts). The
 * section (100,000 documents of one type, 2 indexed fields, its index built by the index module from the same
 * envelopes) is seeded into the emulator's git state directly, as read-scale.test.ts does.
 */
import { describe, expect, it } from 'vitest';
import { blobSha } from '../../src/core/git/objects.js';
import type { RefStore } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { encodeEnvelope } from '../../src/document/envelope.js';
import { DECLARATION_KEY, serializeDeclaration } from '../../src/document/indexes/declaration.js';
import { buildIndex, type IndexDeclaration } from '../../src/document/indexes/index.js';
import { assertIndexExact } from '../document/indexes/index-oracle.js';
import { emulatorPerFile, meteredTransport, newMeter, OWNER, store } from './helpers.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';
const N = 100_000;
const LANGS = ['TypeScript', 'Go', 'Rust', 'Python', 'C', 'Java', 'Ruby'];
const DECLARATION: IndexDeclaration = {
  version: 1,
  indexes: [{ namespace: 'bench', type: 'item', fields: ['data.stars', 'data.language'] }],
};
const id = (i: number) => `g${i % 50}/item-${i}`;
const data = (i: number, stars = i % 1000) => ({ i, stars, language: LANGS[i % 7], text: 'x'.repeat(100) });
const doc = (i: number, d = data(i)) => ({ namespace: 'bench', type: 'item', id: id(i), data: d });
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

/**
 * The section as the emulator holds it, read straight from its git objects (no HTTP): what the index oracle
 * needs of a RefStore to recompute 100,000 documents' index at the tip.
 */
function emulatorView(): RefStore {
  const db = fx.em.state.repo(`${OWNER}/${fx.repo}`).db;
  const treeOf = (version: string) => db.getCommit(version).tree;
  const walk = (tree: string, base: string, out: { key: string; blobSha: string }[]) => {
    for (const e of db.getTree(tree)) {
      if (e.mode === '040000') walk(e.sha, `${base}${e.name}/`, out);
      else out.push({ key: `${base}${e.name}`, blobSha: e.sha });
    }
    return out;
  };
  const view = {
    head: async () => db.readRef(REF) ?? null,
    list: async (o: { version?: string } = {}) => ({ entries: walk(treeOf(o.version ?? db.readRef(REF)!), '', []) }),
    get: async (key: string, o: { version?: string } = {}) => {
      const found = db.lookupPath(treeOf(o.version ?? db.readRef(REF)!), key);
      return found ? { key, value: db.getBlob(found.sha), blobSha: found.sha } : null;
    },
  };
  return view as unknown as RefStore;
}

/** The documents and their index (built by the index module), committed straight into the emulator. */
function seed(): void {
  const files: Record<string, string | null> = { 'README.md': null };
  const docs = [];
  for (let i = 0; i < N; i++) {
    const bytes = encodeEnvelope(doc(i));
    files[`bench/item/${id(i)}.json`] = text(bytes);
    docs.push({ namespace: 'bench', type: 'item', id: id(i), blobSha: blobSha(bytes), data: data(i) });
  }
  for (const [path, bytes] of buildIndex(DECLARATION, docs)) files[path] = text(bytes);
  files[DECLARATION_KEY] = text(serializeDeclaration(DECLARATION));
  fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files, message: `seed ${N} indexed documents` });
}

describe('issue 28 write budget on the GitHub API store', () => {
  it('put of 1 document into an indexed 100,000-document section: ≤ 8 requests, ≤ 1.5 MB uploaded', async () => {
    seed();
    const meter = newMeter();
    const docs = new DocumentStore(store(fx.em, fx.repo, { transport: meteredTransport(meter) }));
    const r = await docs.put(doc(77, data(77, 5_000)));
    expect(r.changed).toBe(true);
    // ref, commit, the declaration + manifest query (with the put key's levels and previous value, which the
    // hook reads next at no cost), the parts query, create tree, create commit, update ref.
    expect(meter.requests, JSON.stringify(meter.log.map((l) => l.path))).toBe(7);
    expect(meter.requests).toBeLessThanOrEqual(8);
    expect(meter.sent).toBeLessThanOrEqual(1.5 * 1024 * 1024);
    // Only the parts that hold the document's rows were rewritten (at most 2 per indexed field).
    const parts = r.written.filter((k) => k.startsWith('_docdb/index/') && k.endsWith('.jsonl'));
    expect(parts.length).toBeGreaterThan(0);
    expect(parts.length).toBeLessThanOrEqual(4);
    // And the index is exact: the stored index equals one recomputed from the documents.
    expect(await assertIndexExact(emulatorView())).toBe(1);
  }, 300_000);
});
