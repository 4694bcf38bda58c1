/**
 * Bulk reads on the GitHub API store (issue 20 §2): a whole 10,000-document section with data in ≤ 5 requests
 * cold through the archive and 1 warm (a 304); the token never reaches the codeload origin; GraphQL batches
 * and REST blobs where there is no archive; untrusted archives refused.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidIdentity, InvalidResponse } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import { sectionFromArchive } from '../../src/stores/remote-api/archive-reads.js';
import { nodeArchiveReader } from '../../src/stores/remote-api/node-archive.js';
import { emulatorPerFile, meteredTransport, newMeter, OWNER, ops, store, TOKEN } from './helpers.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';

/** A section of `n` documents written straight into the emulator (costs no HTTP). */
function seedDocs(n: number, repo = fx.repo): string {
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < n; i++) {
    const id = `g${i % 50}/item-${i}`;
    files[`bench/item/${id}.json`] =
      `${JSON.stringify({ data: { i, text: 'x'.repeat(200) }, id, namespace: 'bench', type: 'item' }, null, 2)}\n`;
  }
  return fx.em.state.commitFiles(`${OWNER}/${repo}`, { branch: REF, files });
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

describe('a 10,000-document section with data', () => {
  it('cold: ≤ 5 requests through the archive (ref, commit, tree, tarball 302, codeload); warm: one 304', async () => {
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
    expect(page.documents.every((d) => d.document?.data !== undefined)).toBe(true);
    expect(page.documents[0]?.document).toMatchObject({ namespace: 'bench', type: 'item', version: page.version });
    const log = ops(fx.em, from);
    expect(log).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'GET git/get-tree 200',
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
    const from2 = fx.em.requests.length;
    const again = await docs.list({ withData: true });
    expect(again.documents.map((d) => d.document?.data)).toEqual(page.documents.map((d) => d.document?.data));
    expect(ops(fx.em, from2)).toEqual(['GET git/get-ref 304']);
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
    const envs = await new DocumentStore(s).getMany([...ids, { namespace: 'bench', doc_type: 'item', id: 'missing' }]);
    expect(envs).toHaveLength(2_001);
    expect(envs[1_234]).toMatchObject({ id: 'g34/item-1234', data: { i: 1234 } });
    expect(envs[2_000]).toBeNull();
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'GET repos/download-tarball-archive 302',
      'GET codeload/legacy.tar.gz 200',
    ]);
  }, 60_000);

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
    const s = store(fx.em, repo, { token: undefined });
    const got = await new DocumentStore(s).list({ withData: true });
    expect(got.documents.filter((d) => d.document)).toHaveLength(20);
    expect(got.requests).toBe(3); // the listing; the blob reads are counted by the bulk read
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
    await expect(docs.list({ withData: 'yes' as never })).rejects.toBeInstanceOf(InvalidConfig);
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

  it('caps: an entry over maxEntryBytes or an archive over maxBytes is refused; bad archiveLimits name the field', async () => {
    seedDocs(100);
    const small = store(fx.em, fx.repo, { archive: nodeArchiveReader(), archiveLimits: { maxEntryBytes: 100 } });
    const e1 = await new DocumentStore(small).list({ withData: true }).catch((e) => e);
    expect(e1).toBeInstanceOf(InvalidResponse);
    expect(String(e1.message)).toMatch(/larger than 100 bytes/);
    const total = store(fx.em, fx.repo, { archive: nodeArchiveReader(), archiveLimits: { maxBytes: 5_000 } });
    const e2 = await new DocumentStore(total).list({ withData: true }).catch((e) => e);
    expect(String(e2.message)).toMatch(/more than 5000 bytes/);
    expect(() => store(fx.em, fx.repo, { archiveLimits: { timeoutMs: 0 } })).toThrow(InvalidConfig);
    expect(() => store(fx.em, fx.repo, { archive: 'yes' as never })).toThrow(InvalidConfig);
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
