/**
 * Issue 28's write budget on the GitHub API store: "put of 1 document into an indexed 100,000-document section:
 * ≤ 8 requests, ≤ 1.5 MB uploaded" — counted at the transport (requests, request-body bytes) against the
 * emulator. The section (100,000 documents of one type, 2 indexed fields, its index built by the index module)
 * is seeded into the emulator's git state directly, as read-scale.test.ts does. The derive hook here keeps the
 * index with the index module's own update (`partsToRead`, `updateIndex`) in the rounds index maintenance
 * reads in: the declaration and the manifest; the document's previous version; the parts its rows are in.
 */
import { describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { blobSha } from '../../src/core/git/objects.js';
import type { Change, DeriveChanges } from '../../src/core/refstore.js';
import { DECLARATION_KEY, serializeDeclaration } from '../../src/document/indexes/declaration.js';
import {
  buildIndex,
  type IndexChange,
  type IndexDeclaration,
  manifestPath,
  parseDeclaration,
  partsToRead,
  updateIndex,
} from '../../src/document/indexes/index.js';
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
const key = (i: number) => `bench/item/${id(i)}.json`;
const data = (i: number, stars = i % 1000) => ({ i, stars, language: LANGS[i % 7], text: 'x'.repeat(100) });
const body = (i: number, d = data(i)) =>
  `${JSON.stringify({ namespace: 'bench', type: 'item', id: id(i), data: d }, null, 2)}\n`;
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

/** The documents and their index (built by the index module), committed straight into the emulator. */
function seed(): void {
  const files: Record<string, string | null> = { 'README.md': null };
  const docs = [];
  for (let i = 0; i < N; i++) {
    const b = body(i);
    files[key(i)] = b;
    docs.push({ namespace: 'bench', type: 'item', id: id(i), blobSha: blobSha(utf8(b)), data: data(i) });
  }
  for (const [path, bytes] of buildIndex(DECLARATION, docs)) files[path] = text(bytes);
  files[DECLARATION_KEY] = text(serializeDeclaration(DECLARATION));
  fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files, message: `seed ${N} indexed documents` });
}

/** Index maintenance for one put of document `i` with `after`, in the rounds the index module needs. */
function keepIndex(i: number, after: ReturnType<typeof data>): DeriveChanges {
  return async ({ read }) => {
    const manifest = manifestPath('bench', 'item');
    const files = new Map<string, Uint8Array>();
    for (const [k, v] of await read([DECLARATION_KEY, manifest])) if (v) files.set(k, v.value);
    const declaration = parseDeclaration(files.get(DECLARATION_KEY));
    const before = (await read([key(i)])).get(key(i));
    const change: IndexChange = {
      namespace: 'bench',
      type: 'item',
      id: id(i),
      ...(before ? { before: { blobSha: before.blobSha, data: JSON.parse(text(before.value)).data } } : {}),
      after: { blobSha: blobSha(utf8(body(i, after))), data: after },
    };
    const parts = partsToRead(declaration, (p) => files.get(p), [change]);
    for (const [k, v] of await read(parts)) if (v) files.set(k, v.value);
    const update = updateIndex(declaration, (p) => files.get(p), [change]);
    const puts: Change[] = [...update.writes].map(([k, value]) => ({ op: 'put', key: k, value }));
    return [...puts, ...update.deletes.map((k): Change => ({ op: 'delete', key: k }))];
  };
}

describe('issue 28 write budget on the GitHub API store', () => {
  it('put of 1 document into an indexed 100,000-document section: ≤ 8 requests, ≤ 1.5 MB uploaded', async () => {
    seed();
    const meter = newMeter();
    const s = store(fx.em, fx.repo, { transport: meteredTransport(meter) });
    const after = data(77, 5_000);
    const r = await s.commit([{ op: 'put', key: key(77), value: body(77, after) }], { derive: keepIndex(77, after) });
    expect(r.changed).toBe(true);
    // ref, commit, the declaration + manifest query (with the put key's levels and previous value), the parts
    // query, create tree, create commit, update ref.
    expect(meter.requests, JSON.stringify(meter.log.map((l) => l.path))).toBe(7);
    expect(meter.requests).toBeLessThanOrEqual(8);
    expect(meter.sent).toBeLessThanOrEqual(1.5 * 1024 * 1024);
    // Only the parts that hold the document's rows were rewritten (one per indexed field at most twice).
    const parts = r.written.filter((k) => k.startsWith('_docdb/index/'));
    expect(parts.length).toBeGreaterThan(0);
    expect(parts.length).toBeLessThanOrEqual(4);
    // The index is exact: the new row (stars 5,000, the new blob) is in a part at the new tip.
    const check = store(fx.em, fx.repo);
    const newSha = blobSha(utf8(body(77, after)));
    const contents = await Promise.all(parts.map(async (k) => text((await check.get(k))?.value)));
    expect(contents.some((c) => c.includes(newSha) && c.includes('5000'))).toBe(true);
  }, 180_000);
});
