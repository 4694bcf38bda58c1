/**
 * Bulk reads on the GitHub API store (issue 20 §2): a whole 10,000-document section with data in ≤ 5 requests
 * cold through the archive and 1 warm (a 304); the token never reaches the codeload origin; GraphQL batches
 * and REST blobs where there is no archive; untrusted archives refused.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidIdentity, InvalidResponse } from '../../src/core/errors.js';
import { readManyFrom } from '../../src/core/read-many.js';
import type { OperationMeta } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/index.js';
import { sectionFromArchive } from '../../src/stores/remote-api/archive-reads.js';
import { nodeArchiveReader } from '../../src/stores/remote-api/node-archive.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulatorPerFile, makeTransport, meteredTransport, newMeter, OWNER, ops, store, TOKEN } from './helpers.js';

/** GraphQL cuts `Blob.text` past this many bytes here (GitHub: 512,000), so a small blob can cross it. */
const TEXT_LIMIT = 4096;
const fx = emulatorPerFile({ graphqlBlobTextBytes: TEXT_LIMIT });
const REF = 'refs/docdb/documents';

/** Document `i` of a seeded section, as stored (~320 bytes). */
const docText = (i: number) =>
  `${JSON.stringify({ data: { i, text: 'x'.repeat(200) }, id: `g${i % 50}/item-${i}`, namespace: 'bench', type: 'item' }, null, 2)}\n`;

/** A section of `n` documents written straight into the emulator (costs no HTTP). */
function seedDocs(n: number, repo = fx.repo): string {
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < n; i++) files[`bench/item/g${i % 50}/item-${i}.json`] = docText(i);
  return fx.em.state.commitFiles(`${OWNER}/${repo}`, { branch: REF, files });
}

/** Bytes of the first `n` documents' blobs: what a bulk read of them must at least carry. */
function blobBytes(n: number): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += new TextEncoder().encode(docText(i)).length;
  return total;
}

/** A transport that records the most requests it ever had in flight at once. */
function peakTransport(inner: HttpTransport, seen: { inFlight: number; peak: number }): HttpTransport {
  return {
    async request(req) {
      seen.inFlight++;
      seen.peak = Math.max(seen.peak, seen.inFlight);
      try {
        return await inner.request(req);
      } finally {
        seen.inFlight--;
      }
    },
  };
}

/** A fetch for the archive reader that records, per origin, whether Authorization was sent. */
function recordingFetch(seen: { origin: string; authorization: boolean; bytes: number }[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const buf = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(init?.headers);
    seen.push({
      origin: new URL(String(input)).origin,
      authorization: headers.has('authorization'),
      bytes: buf.length,
    });
    return new Response(res.status === 304 ? null : buf, { status: res.status, headers: res.headers });
  };
}

/** Read a.json, bin.dat and big.json through `readManyFrom`: the texts by key, and what the read cost. */
async function readThree(s: Parameters<typeof readManyFrom>[0]) {
  let cost: OperationMeta = {};
  const got: Record<string, string | null> = {};
  for await (const item of readManyFrom(s, ['a.json', 'bin.dat', 'big.json'], { onMeta: (m) => (cost = m) })) {
    got[item.key] = item.value === null ? null : new TextDecoder().decode(item.value);
  }
  return { got, cost };
}

describe('a 10,000-document section with data', () => {
  it('cold: 4 requests, the archive read first (ref, commit, tarball 302, codeload: its tree is the listing); warm: one 304', async () => {
    seedDocs(10_000);
    const seen: { origin: string; authorization: boolean; bytes: number }[] = [];
    const meter = newMeter();
    const s = store(fx.em, fx.repo, {
      transport: meteredTransport(meter),
      archive: nodeArchiveReader({ fetch: recordingFetch(seen) }),
    });
    const docs = new DocumentStore(s);
    const from = fx.em.requests.length;
    const page = await docs.list({ withData: true });
    expect(page.documents).toHaveLength(10_000);
    // The result carries every request the read cost: ref and commit, and the archive's 2 — whose tree, checked
    // against the commit's, is the listing (it cost 5 when the tree was listed first).
    expect(page.requests).toBe(4);
    expect(page.documents.every((d) => d.document?.data !== undefined)).toBe(true);
    expect(page.documents[0]?.document).toMatchObject({ namespace: 'bench', type: 'item', version: page.version });
    const log = ops(fx.em, from);
    expect(log).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'GET repos/download-tarball-archive 302',
      'GET codeload/legacy.tar.gz 200',
    ]);
    // The token went to the API origin only: codeload saw no Authorization header.
    expect(seen.map((x) => [x.origin === fx.em.url, x.authorization])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(
      fx.em.requests.slice(from).filter((r) => r.operation === 'codeload/legacy.tar.gz')[0]?.sentAuthorization,
    ).toBe(false);
    // Bytes down, API (metered transport) and codeload (the archive reader's fetch) together. A cold read
    // carries the listing (~270 B per entry: path, SHA, URL) and the gzip'd archive (these documents compress
    // well); reading the blobs a second way (GraphQL or REST, ≥ 1.1× their bytes) or the listing twice
    // would each add about the section's blob bytes, so 1.25× + 64 KB fails on either.
    const down = meter.received + seen.reduce((n, x) => n + x.bytes, 0);
    expect(down).toBeLessThanOrEqual(1.25 * blobBytes(10_000) + 64 * 1024);
    expect(seen.find((x) => x.origin !== fx.em.url)?.bytes).toBeGreaterThan(0);
    const from2 = fx.em.requests.length;
    const again = await docs.list({ withData: true });
    expect(again.documents.map((d) => d.document?.data)).toEqual(page.documents.map((d) => d.document?.data));
    expect(ops(fx.em, from2)).toEqual(['GET git/get-ref 304']);
    expect(again.requests).toBe(1);
  }, 120_000);

  it('values that fill the cache do not push out the tree levels: a migration right after its bulk read', async () => {
    seedDocs(2_000); // ~700 KB of values and ~130 KB of tree levels, in a cache of 800 KB
    const s = store(fx.em, fx.repo, { archive: nodeArchiveReader(), cache: { maxBytes: 800_000 } });
    const from = fx.em.requests.length;
    const done = await new DocumentStore(s).migrate({
      namespace: 'bench',
      type: 'item',
      operations: [{ op: 'set', field: 'data.flag', value: true }],
    });
    expect(done.version).not.toBeNull();
    // ref, commit, tree, tarball, codeload, then the write (ref, tree, commit, ref update): 9. With the levels
    // cached before the values, the values pushed them out and the commit read them again: 59.
    expect(ops(fx.em, from).filter((o) => o.includes('get-tree'))).toEqual(['GET git/get-tree 200']);
    expect(fx.em.requests.length - from).toBeLessThanOrEqual(10);
  }, 120_000);

  it('getMany of every document cold: ref, commit, tarball, codeload (no listing)', async () => {
    seedDocs(2_000);
    const s = store(fx.em, fx.repo, { archive: nodeArchiveReader() });
    const ids = Array.from({ length: 2_000 }, (_, i) => ({
      namespace: 'bench',
      doc_type: 'item',
      id: `g${i % 50}/item-${i}`,
    }));
    const from = fx.em.requests.length;
    const docs = new DocumentStore(s);
    const got = await docs.readMany([...ids, { namespace: 'bench', doc_type: 'item', id: 'missing' }]);
    const envs = got.documents;
    expect(envs).toHaveLength(2_001);
    expect(envs[1_234]).toMatchObject({ id: 'g34/item-1234', data: { i: 1234 } });
    expect(envs[2_000]).toBeNull();
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'GET repos/download-tarball-archive 302',
      'GET codeload/legacy.tar.gz 200',
    ]);
    expect([got.requests, got.version]).toEqual([4, envs[0]?.version]);
    // getMany is the same read without the cost; warm, both cost the one 304.
    const from2 = fx.em.requests.length;
    expect((await docs.getMany(ids.slice(0, 3))).map((e) => e?.id)).toEqual(ids.slice(0, 3).map((i) => i.id));
    expect((await docs.readMany(ids.slice(0, 3))).requests).toBe(1);
    expect(ops(fx.em, from2)).toEqual(['GET git/get-ref 304', 'GET git/get-ref 304']);
  }, 60_000);

  it('stream with data reports the running cost of every page: listings and bulk reads', async () => {
    seedDocs(2_000);
    const s = store(fx.em, fx.repo, { archive: nodeArchiveReader() });
    const costs: (number | undefined)[] = [];
    const from = fx.em.requests.length;
    let n = 0;
    for await (const d of new DocumentStore(s).stream({
      withData: true,
      pageSize: 1_000,
      onMeta: (m) => costs.push(m.requests),
    })) {
      if (d.document) n++;
    }
    expect(n).toBe(2_000);
    // Page 1: ref, commit, then the archive (302 + codeload), its tree the listing; page 2 is served by the cache.
    expect(ops(fx.em, from)).toHaveLength(4);
    expect(costs).toEqual([4, 4]);
  }, 60_000);

  it('a page of fewer than 100 with data: the listing and one GraphQL read, not the section’s archive', async () => {
    seedDocs(2_000);
    const s = store(fx.em, fx.repo, { archive: nodeArchiveReader() });
    const from = fx.em.requests.length;
    const page = await new DocumentStore(s).list({ withData: true, limit: 10 });
    expect(page.documents.filter((d) => d.document)).toHaveLength(10);
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'GET git/get-tree 200',
      'POST graphql 200',
    ]);
  });

  it('a private repository: the redirect carries its own credential, still no Authorization at codeload', async () => {
    const repo = `private-${Math.random().toString(36).slice(2, 8)}`;
    fx.em.state.createRepo(`${OWNER}/${repo}`, { private: true });
    seedDocs(100, repo);
    const seen: { origin: string; authorization: boolean; bytes: number }[] = [];
    const s = store(fx.em, repo, { archive: nodeArchiveReader({ fetch: recordingFetch(seen) }) });
    const page = await new DocumentStore(s).list({ withData: true });
    expect(page.documents.filter((d) => d.document)).toHaveLength(100);
    expect(seen.filter((x) => x.origin !== fx.em.url).every((x) => !x.authorization)).toBe(true);
    expect(JSON.stringify(fx.em.requests)).not.toContain(TOKEN);
  });
});

describe('without an archive (a browser)', () => {
  it('with a token: GraphQL batches of 100 blobs; blobs already cached are not fetched again', async () => {
    seedDocs(250);
    const s = store(fx.em, fx.repo);
    const docs = new DocumentStore(s);
    const from = fx.em.requests.length;
    const page = await docs.list({ withData: true });
    expect(page.documents.filter((d) => d.document)).toHaveLength(250);
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'GET git/get-tree 200',
      'POST graphql 200',
      'POST graphql 200',
      'POST graphql 200',
    ]);
    fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, {
      branch: REF,
      files: { 'bench/item/g0/item-0.json': '{"data":1,"id":"g0/item-0","namespace":"bench","type":"item"}\n' },
    });
    const from2 = fx.em.requests.length;
    const next = await docs.list({ withData: true });
    expect(next.documents[0]?.document?.data).toBe(1);
    // Only the changed blob is read: one GraphQL batch of one.
    expect(ops(fx.em, from2).filter((o) => o.startsWith('POST graphql'))).toHaveLength(1);
  });

  it('anonymous: REST blobs, 8 at a time', async () => {
    const repo = `public-${Math.random().toString(36).slice(2, 8)}`;
    fx.em.state.createRepo(`${OWNER}/${repo}`);
    seedDocs(20, repo);
    const seen = { inFlight: 0, peak: 0 };
    const transport = peakTransport(makeTransport('fetch', fx.em, undefined), seen);
    const s = store(fx.em, repo, { token: undefined, transport });
    const from = fx.em.requests.length;
    const got = await new DocumentStore(s).list({ withData: true });
    expect(got.documents.filter((d) => d.document)).toHaveLength(20);
    const blobs = ops(fx.em, from).filter((o) => o === 'GET git/get-blob 200');
    expect(blobs).toHaveLength(20);
    expect(got.requests).toBe(3 + 20); // the listing, then one REST blob per document
    // Bounded: never more than BULK_CONCURRENCY (8) requests in flight, but more than one at a time.
    expect(seen.peak).toBeLessThanOrEqual(8);
    expect(seen.peak).toBeGreaterThan(1);
  });

  it('GraphQL by path: a blob it flags isBinary or isTruncated is read from the REST blobs endpoint, once', async () => {
    const big = `{"text":"${'y'.repeat(TEXT_LIMIT)}"}`;
    fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, {
      branch: REF,
      files: { 'README.md': null, 'a.json': '{"a":1}', 'bin.dat': 'a\u0000b', 'big.json': big },
    });
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const { got, cost } = await readThree(s);
    expect(got).toEqual({ 'a.json': '{"a":1}', 'bin.dat': 'a\u0000b', 'big.json': big });
    // One query names every path (and gives a.json's text); GraphQL is not asked again by oid for the other two.
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'POST graphql 200',
      'GET git/get-blob 200',
      'GET git/get-blob 200',
    ]);
    expect(cost.requests).toBe(4);
  });

  it('GraphQL by oid (SHAs from a listing): isBinary and isTruncated blobs fall back to REST blobs', async () => {
    const big = `{"text":"${'y'.repeat(TEXT_LIMIT)}"}`;
    fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, {
      branch: REF,
      files: { 'README.md': null, 'a.json': '{"a":1}', 'bin.dat': 'a\u0000b', 'big.json': big },
    });
    const s = store(fx.em, fx.repo);
    await s.list(); // the levels are cached: each key's blob SHA is known without GraphQL by path
    const from = fx.em.requests.length;
    const { got, cost } = await readThree(s);
    expect(got).toEqual({ 'a.json': '{"a":1}', 'bin.dat': 'a\u0000b', 'big.json': big });
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 304',
      'POST graphql 200',
      'GET git/get-blob 200',
      'GET git/get-blob 200',
    ]);
    expect(cost.requests).toBe(4);
  });
});

describe('bad input and untrusted archives', () => {
  it('an invalid identity in the list names its index; withData must be a boolean', async () => {
    const docs = new DocumentStore(store(fx.em, fx.repo));
    const err = await docs
      .getMany([
        { namespace: 'n', doc_type: 't', id: 'ok' },
        { namespace: 'n', doc_type: 't', id: '../x' },
      ])
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidIdentity);
    expect(err.data.field).toBe('identities[1].id');
    const bad = await docs.list({ withData: 'yes' as never }).catch((e) => e);
    expect(bad).toBeInstanceOf(InvalidConfig);
    expect(bad.data.field).toBe('withData');
    expect(bad.message).toMatch(/withData must be a boolean, got "yes"/);
    await expect(docs.stream({ withData: 1 as never }).next()).rejects.toMatchObject({
      code: 'InvalidConfig',
      data: { field: 'withData' },
    });
    await expect(docs.getMany('x' as never)).rejects.toBeInstanceOf(InvalidConfig);
  });

  it('refuses archive entries outside the top directory, with .. or absolute paths', () => {
    const commit = 'a'.repeat(40);
    const top = `o-r-${commit.slice(0, 7)}/`;
    const file = (path: string) => ({ path, type: 'file' as const, mode: 0o644, bytes: new Uint8Array([1]) });
    expect(() => sectionFromArchive([file(`${top}a.json`)], commit, 'x'.repeat(40))).not.toThrow();
    for (const bad of [`${top}../x.json`, `${top}a/./b.json`, 'other/a.json', `${top}/abs.json`, `${top}a\\b.json`]) {
      expect(() =>
        sectionFromArchive([{ ...file(top), type: 'directory' }, file(bad)], commit, 'x'.repeat(40)),
      ).toThrow(InvalidResponse);
    }
    expect(() => sectionFromArchive([file('wrong-top/a.json')], commit, 'x'.repeat(40))).toThrow(InvalidResponse);
  });

  it('caps: an entry over maxEntryBytes is refused; an archive over maxBytes is left for batches; bad archiveLimits name the field', async () => {
    seedDocs(100);
    const small = store(fx.em, fx.repo, { archive: nodeArchiveReader(), archiveLimits: { maxEntryBytes: 100 } });
    const e1 = await new DocumentStore(small).list({ withData: true }).catch((e) => e);
    expect(e1).toBeInstanceOf(InvalidResponse);
    expect(String(e1.message)).toMatch(/larger than 100 bytes \(maxEntryBytes\)/);
    // Over maxBytes is what an honest big section looks like: a warning, then the values in GraphQL batches.
    const warnings: string[] = [];
    const total = store(fx.em, fx.repo, {
      archive: nodeArchiveReader(),
      archiveLimits: { maxBytes: 5_000 },
      logger: (e) => e.level === 'warn' && warnings.push(e.message),
    });
    const from = fx.em.requests.length;
    const page = await new DocumentStore(total).list({ withData: true });
    expect(page.documents.filter((d) => d.document?.data !== undefined)).toHaveLength(100);
    expect(warnings).toEqual([
      expect.stringMatching(/more than 5000 bytes \(maxBytes\); reading the values in batches/),
    ]);
    // The archive is read first (the listing's hint: values follow); over its limit, the tree is listed, and the
    // bulk read does not download the archive a second time.
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'GET repos/download-tarball-archive 302',
      'GET codeload/legacy.tar.gz 200',
      'GET git/get-tree 200',
      'POST graphql 200',
    ]);
    expect(page.requests).toBe(6);
    expect(() => store(fx.em, fx.repo, { archiveLimits: { timeoutMs: 0 } })).toThrow(InvalidConfig);
    expect(() => store(fx.em, fx.repo, { archiveLimits: { maxEntries: 1.5 } })).toThrow(InvalidConfig);
    expect(() => store(fx.em, fx.repo, { archive: 'yes' as never })).toThrow(InvalidConfig);
  });

  it('a name with a backslash (git allows it) is read from an archive that verifies; unverified, it is refused', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) {
      files[`bench/a\\b/x${i}.json`] =
        `${JSON.stringify({ data: { i }, id: `x${i}`, namespace: 'bench', type: 'a\\b' }, null, 2)}\n`;
    }
    fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files });
    const s = store(fx.em, fx.repo, { archive: nodeArchiveReader() });
    const from = fx.em.requests.length;
    const page = await new DocumentStore(s).list({ namespace: 'bench', type: 'a\\b', withData: true });
    expect(page.documents.map((d) => d.document?.data)).toHaveLength(100);
    expect(page.documents.find((d) => d.id === 'x42')?.document?.data).toEqual({ i: 42 });
    expect(ops(fx.em, from)).toContain('GET codeload/legacy.tar.gz 200');
    expect(ops(fx.em, from).filter((o) => o.includes('get-tree') || o.includes('graphql'))).toEqual([]);
    // The same name in an archive whose tree is not the commit's: refused (the unit test above, at the end).
    const commit = 'a'.repeat(40);
    const top = `o-r-${commit.slice(0, 7)}/`;
    const entry = { path: `${top}a\\b.json`, type: 'file' as const, mode: 0o644, bytes: new Uint8Array([1]) };
    expect(() => sectionFromArchive([entry], commit, 'x'.repeat(40))).toThrow(/a\\\\b\.json" has an unsafe path/);
  });

  it('an archive of another commit (a tampered codeload) is refused: its top directory names another commit', async () => {
    seedDocs(100);
    const tamper: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      if (url.origin === fx.em.url) return fetch(input, init);
      // Serve the archive of ANOTHER commit: every level mismatches, no blob matches the listing.
      const other = fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, {
        branch: 'refs/heads/other',
        files: { 'x.json': '{}' },
      });
      const redirect = await fetch(`${fx.em.url}/repos/${OWNER}/${fx.repo}/tarball/${other}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
        redirect: 'manual',
      });
      return fetch(redirect.headers.get('location') as string);
    };
    const s = store(fx.em, fx.repo, { archive: nodeArchiveReader({ fetch: tamper }) });
    const err = await new DocumentStore(s).list({ withData: true }).catch((e) => e);
    // The other commit's archive has another short SHA in its top directory: refused outright.
    expect(err).toBeInstanceOf(InvalidResponse);
    expect(String(err.message)).toMatch(/top directory/);
  });
});
