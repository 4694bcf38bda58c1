/**
 * Issue 21 §2: a large `putMany` is cut in key order (src/document/batch.ts), so each create-tree request
 * touches one or two directories however the input is ordered. In input order, documents spread over 50
 * directories put all 50 in every request, and every request re-encodes each of them (GitHub's
 * create-tree with `base_tree` most likely pays the same way). Read from the request bodies the store
 * sends: the paths of each request's entries.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulatorPerFile, store } from './helpers.js';

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
