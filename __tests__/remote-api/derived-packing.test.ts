/**
 * A commit in parts (`putMany` above 1,000 documents, `commitParts`) sends its documents as a chain of
 * create-tree requests of ≤ `maxInlineBytes` of content each; its derived files (the index written in the
 * same commit) join that chain where the documents end (issue 42). Before, the documents' chain was closed
 * first, so its last request went out partly filled and the index started a request of its own: one
 * request more than the bytes need (at the default bound, 2,000 documents of ≈ 240 bytes with 2 indexed
 * fields cost 5 requests against 4 without the index; now 4 and 4).
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { fetchTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulatorPerFile, freshRepo, store } from './helpers.js';
import { goStars, ITEM_INDEX, smallItems } from './small-items.js';

const fx = emulatorPerFile();
const BOUND = 64 * 1024;
const docs = smallItems;

interface TreeRequest {
  /** Inline content bytes of each entry (0 for an entry naming a SHA). */
  entries: { path: string; bytes: number }[];
}

/** Every request, and the entries of each create-tree request. */
function recording() {
  const trees: TreeRequest[] = [];
  const log = { requests: 0, trees };
  const inner = fetchTransport({ timeoutMs: 30_000 });
  const transport: HttpTransport = {
    request: async (req) => {
      log.requests++;
      if (req.method === 'POST' && req.url.endsWith('/git/trees') && req.body) {
        const body = JSON.parse(new TextDecoder().decode(req.body)) as {
          tree: { path: string; content?: string }[];
        };
        trees.push({
          entries: body.tree.map((e) => ({ path: e.path, bytes: Buffer.byteLength(e.content ?? '') })),
        });
      }
      return inner.request(req);
    },
  };
  return { log, transport };
}

const contentOf = (t: TreeRequest) => t.entries.reduce((n, e) => n + e.bytes, 0);

async function firstWrite(n: number, indexed: boolean, bound = BOUND) {
  const { log, transport } = recording();
  const repo = freshRepo(fx.em);
  const d = new DocumentStore(store(fx.em, repo, { transport, maxInlineBytes: bound }), {
    index: { maxPartBytes: 8 * 1024 },
  });
  await d.putMany(docs(n), indexed ? { indexes: [ITEM_INDEX] } : {});
  return { log, d };
}

describe('a commit in parts packs its derived files into the documents’ chain of requests', () => {
  it('fills every create-tree request but the last, documents and index files alike', async () => {
    const { log, d } = await firstWrite(3000, true);
    const all = log.trees.flatMap((t) => t.entries);
    const largest = Math.max(...all.map((e) => e.bytes));
    const mixed = log.trees.filter(
      (t) => t.entries.some((e) => e.path.startsWith('_docdb/')) && t.entries.some((e) => e.path.startsWith('bench/')),
    );
    // The request where the documents end carries index files too (before: documents only, partly filled).
    expect(mixed).toHaveLength(1);
    for (const t of log.trees.slice(0, -1)) expect(contentOf(t)).toBeGreaterThan(BOUND - largest);
    // And the bytes need no more requests than that: whole requests of ≥ BOUND − largest, plus the last.
    const total = all.reduce((n, e) => n + e.bytes, 0);
    expect(log.trees.length).toBeLessThanOrEqual(Math.floor(total / (BOUND - largest)) + 1);
    const q = await goStars(d);
    expect(q.answeredBy).toBe('index');
    expect(q.rows).toHaveLength(429); // i % 7 === 1 below 3,000
  }, 60_000);

  it('costs no more requests than the same write without an index when the index fits in the last request', async () => {
    // 1,200 documents of ≈ 250 bytes (≈ 300 KB) and their index (≈ 110 bytes per document with 8 KiB
    // parts) fit in one request of 512 KiB: the index adds none (before: a second create-tree request).
    const plain = await firstWrite(1200, false, 512 * 1024);
    const indexed = await firstWrite(1200, true, 512 * 1024);
    expect(plain.log.trees).toHaveLength(1);
    expect(indexed.log.trees.length, `${indexed.log.trees.length} vs ${plain.log.trees.length}`).toBe(
      plain.log.trees.length,
    );
    expect(indexed.log.requests).toBe(plain.log.requests);
  }, 60_000);

  it('sends the derived files alone when no document changes (an index declared over written documents)', async () => {
    const repo = freshRepo(fx.em);
    await new DocumentStore(store(fx.em, repo, { maxInlineBytes: BOUND })).putMany(docs(1200));
    const { log, transport } = recording();
    const d = new DocumentStore(store(fx.em, repo, { transport, maxInlineBytes: BOUND }), {
      index: { maxPartBytes: 8 * 1024 },
    });
    const r = await d.putMany(docs(1200), { indexes: [ITEM_INDEX] });
    expect(r.written.every((k) => k.startsWith('_docdb/'))).toBe(true);
    expect(r.written).toContain('_docdb/indexes.json');
    expect(log.trees.flatMap((t) => t.entries).every((e) => e.path.startsWith('_docdb/'))).toBe(true);
    const q = await d.query({
      namespace: 'bench',
      type: 'item',
      where: [{ field: 'data.stars', op: '=', value: 7 }],
      requireIndex: true,
    });
    expect(q.answeredBy).toBe('index');
    expect(q.documents?.map((x) => x.id)).toEqual(['g3/item-753']); // 753 × 7919 ≡ 7 (mod 1000)
  }, 60_000);
});
