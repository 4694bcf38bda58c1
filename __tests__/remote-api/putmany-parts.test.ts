/**
 * A `putMany` of more than 1,000 documents, handed to the GitHub API store in parts (src/document/batch.ts).
 * Issue 21 §2: the parts are cut in key order, so each create-tree request touches one or two directories
 * however the input is ordered. In input order, documents spread over 50 directories put all 50 in every
 * request, and every request re-encodes each of them (GitHub's create-tree with `base_tree` most likely
 * pays the same way). Read from the request bodies the store sends: the paths of each request's entries.
 * Issue 21 §4: what an invalid document costs — every key before any request, `data` when its part is
 * encoded (after the earlier parts' uploads, before any commit).
 */
import { describe, expect, it } from 'vitest';
import { InvalidDocument } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulatorPerFile, OWNER, ops, store } from './helpers.js';

const fx = emulatorPerFile();

/** A fetch transport that keeps the parsed body of every `POST /git/trees`. */
function treeBodies(bodies: { tree: { path: string }[] }[]): HttpTransport {
  const inner = fetchTransport({ timeoutMs: 30_000 });
  const decoder = new TextDecoder();
  return {
    request: (req) => {
      if (req.method === 'POST' && new URL(req.url).pathname.endsWith('/git/trees') && req.body) {
        bodies.push(JSON.parse(decoder.decode(req.body)));
      }
      return inner.request(req);
    },
  };
}

describe('putMany cuts its create-tree requests in key order', () => {
  it('2,500 documents over 50 directories, interleaved: each request touches at most 2 directories', async () => {
    const bodies: { tree: { path: string }[] }[] = [];
    // About 30 documents per request, fewer than the 50 of one directory.
    const s = store(fx.em, fx.repo, { transport: treeBodies(bodies), maxInlineBytes: 8 * 1024 });
    const dirs = 50;
    const n = 2_500;
    // Input order walks across the directories: document i goes to directory i % 50.
    const docs = Array.from({ length: n }, (_, i) => ({
      namespace: `dir${String(i % dirs).padStart(2, '0')}`,
      type: 't',
      id: `doc${i}`,
      data: { i, pad: 'x'.repeat(200) },
    }));
    const r = await new DocumentStore(s).putMany(docs);
    expect(r.changed).toBe(true);
    expect(bodies.length).toBeGreaterThan(dirs); // many requests, so the cut matters
    const topDirs = bodies.map((b) => new Set(b.tree.map((e) => e.path.slice(0, e.path.indexOf('/')))).size);
    expect(Math.max(...topDirs)).toBeLessThanOrEqual(2);
    // Every document went in exactly one request, and the section holds them all.
    const paths = bodies.flatMap((b) => b.tree.map((e) => e.path));
    expect(new Set(paths).size).toBe(n);
    expect(paths).toHaveLength(n);
    expect((await s.list({ prefix: 'dir49/' })).entries).toHaveLength(n / dirs);
  });
});

describe('an invalid document in a large putMany', () => {
  // 3,000 documents of about 300 bytes in create-tree requests of 64 KiB: the parts before the last
  // fill several requests. The last document in key order is the last part's last one.
  const docs = () =>
    Array.from({ length: 3_000 }, (_, i) => ({
      namespace: 'n',
      type: 't',
      id: `d${String(i).padStart(4, '0')}`,
      data: { v: i, pad: 'x'.repeat(200) } as unknown,
    }));
  const section = () => fx.em.state.repo(`${OWNER}/${fx.repo}`).db.readRef('refs/docdb/documents');

  it('a bad key or missing data in the last document fails before any request', async () => {
    const s = store(fx.em, fx.repo, { maxInlineBytes: 64 * 1024 });
    const input = docs();
    input[2_999] = { namespace: 'n', type: 't', id: 'd2999' } as (typeof input)[number]; // no data
    const from = fx.em.requests.length;
    const err = await new DocumentStore(s).putMany(input).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidDocument);
    expect(err.data.field).toBe('data');
    expect(ops(fx.em, from)).toEqual([]);
  });

  it('data that is not JSON in the last document fails when its part is encoded: earlier parts uploaded, nothing committed', async () => {
    const s = store(fx.em, fx.repo, { maxInlineBytes: 64 * 1024 });
    const input = docs();
    (input[2_999] as { data: unknown }).data = { v: Number.NaN };
    const from = fx.em.requests.length;
    const err = await new DocumentStore(s).putMany(input).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidDocument);
    expect(err.message).toMatch(/document\.data\.v is not JSON: NaN/);
    // The ref read, then the create-tree requests of the first two parts — and nothing else.
    const sent = ops(fx.em, from);
    expect(sent[0]).toBe('GET git/get-ref 404');
    expect(sent.slice(1).length).toBeGreaterThanOrEqual(2);
    for (const op of sent.slice(1)) expect(op).toBe('POST git/create-tree 201');
    expect(section()).toBeUndefined();
  });
});
