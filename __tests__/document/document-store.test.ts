/** DocumentStore over MemoryRefStore. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidDocument, InvalidIdentity, InvalidKey, InvalidVersion } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { type DocumentInput, DocumentStore, encodeEnvelope, type Identity } from '../../src/document/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';

function fresh() {
  let t = 1_700_000_000_000;
  const refs = new MemoryRefStore({ now: () => (t += 1000) });
  return { refs, docs: new DocumentStore(refs) };
}

const repoDoc = (id: string, data: unknown = { fullName: id }): DocumentInput => ({
  namespace: 'github',
  type: 'repo',
  id,
  data,
});
const ident = (id: string, namespace = 'github', doc_type = 'repo'): Identity => ({ namespace, doc_type, id });

describe('DocumentStore', () => {
  it('put then get returns the envelope at the commit version', async () => {
    const { docs, refs } = fresh();
    const data = {
      fullName: 'octo/hello-world',
      defaultBranch: 'main',
      branches: [{ name: 'refs/heads/main', sha: 'a'.repeat(40) }],
    };
    const r = await docs.put({ namespace: 'github', type: 'repo', id: 'octo/hello-world', data });
    expect(r.changed).toBe(true);
    expect(r.written).toEqual(['github/repo/octo/hello-world.json']);
    expect(r.document).toEqual({ namespace: 'github', type: 'repo', id: 'octo/hello-world', version: r.version, data });
    const got = await docs.get(ident('octo/hello-world'));
    expect(got).toEqual(r.document);
    // The stored blob is exactly the canonical envelope, under the canonical key.
    const raw = await refs.get('github/repo/octo/hello-world.json');
    expect(raw!.blobSha).toBe(blobSha(encodeEnvelope(repoDoc('octo/hello-world', data))));
    expect(docs.ref).toBe('refs/docdb/documents');
    expect(await docs.head()).toBe(r.version);
  });

  it('handles unicode identities and ids with slashes', async () => {
    const { docs } = fresh();
    const d = { namespace: 'ünï', type: '日本語', id: 'org/répo/😀', data: { ok: true } };
    const r = await docs.put(d);
    expect(r.written).toEqual(['ünï/日本語/org/répo/😀.json']);
    expect((await docs.get({ namespace: 'ünï', doc_type: '日本語', id: 'org/répo/😀' }))?.data).toEqual({ ok: true });
    expect(await docs.get({ namespace: 'ünï', doc_type: '日本語', id: 'org/répo' })).toBeNull();
  });

  it('unchanged data (in any key order) makes no commit', async () => {
    const { docs } = fresh();
    const r1 = await docs.put(repoDoc('o/n', { a: 1, b: [1, 2] }));
    const r2 = await docs.put(repoDoc('o/n', { b: [1, 2], a: 1 }));
    expect(r2).toMatchObject({ changed: false, version: r1.version, unchanged: 1 });
    expect(r2.document?.version).toBe(r1.version);
    const r3 = await docs.putMany([repoDoc('o/n', { a: 1, b: [1, 2] })]);
    expect(r3.changed).toBe(false);
    expect((await docs.history(ident('o/n'))).entries).toHaveLength(1);
  });

  it('rejects bad identities before any write, naming the field', async () => {
    const { docs, refs } = fresh();
    const cases: [DocumentInput, string][] = [
      [{ namespace: '', type: 'repo', id: 'x', data: 1 }, 'namespace'],
      [{ namespace: 'github', type: '..', id: 'x', data: 1 }, 'doc_type'],
      [{ namespace: 'github', type: 'repo', id: 'a/../b', data: 1 }, 'id'],
      [{ namespace: 'github', type: 'repo', id: 'nul\u0000', data: 1 }, 'id'],
      [{ namespace: 'github', type: 'repo', id: 'a//b', data: 1 }, 'id'],
      [{ namespace: '_docdb', type: 'state', id: 'x', data: 1 }, 'namespace'],
      [{ namespace: 'git/hub', type: 'repo', id: 'x', data: 1 }, 'namespace'],
    ];
    for (const [doc, field] of cases) {
      for (const attempt of [() => docs.put(doc), () => docs.putMany([repoDoc('fine'), doc])]) {
        const err = await attempt().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InvalidIdentity);
        expect((err as InvalidIdentity).data.field).toBe(field);
      }
      const id = { namespace: doc.namespace, doc_type: doc.type, id: doc.id };
      await expect(docs.get(id)).rejects.toBeInstanceOf(InvalidIdentity);
      await expect(docs.delete(id)).rejects.toBeInstanceOf(InvalidIdentity);
      await expect(docs.history(id)).rejects.toBeInstanceOf(InvalidIdentity);
    }
    expect(await refs.head()).toBeNull();
  });

  it('rejects a version on input, naming "version", and non-JSON data naming its path', async () => {
    const { docs, refs } = fresh();
    const withVersion = { ...repoDoc('x'), version: 'a'.repeat(40) } as DocumentInput;
    const err = await docs.put(withVersion).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidDocument);
    expect((err as InvalidDocument).data.field).toBe('version');
    const bad = await docs.put(repoDoc('x', { nested: [{ n: Number.NaN }] })).catch((e: unknown) => e);
    expect((bad as InvalidDocument).data.field).toBe('document.data.nested[0].n');
    await expect(docs.commit([{ op: 'nope' } as never])).rejects.toBeInstanceOf(InvalidDocument);
    expect(await refs.head()).toBeNull();
  });

  it('putMany and commit make exactly one commit', async () => {
    const { docs, refs } = fresh();
    const r = await docs.putMany([repoDoc('a/1'), repoDoc('a/2'), { ...repoDoc('x'), namespace: 'npm' }], {
      message: 'projection run',
    });
    expect(r.changed).toBe(true);
    expect(r.previousVersion).toBeNull();
    expect(r.written.sort()).toEqual(['github/repo/a/1.json', 'github/repo/a/2.json', 'npm/repo/x.json']);
    const c = await docs.commit([
      { op: 'delete', identity: ident('a/1') },
      { op: 'put', document: repoDoc('a/3') },
      { op: 'put', document: repoDoc('a/2') }, // unchanged
    ]);
    expect(c).toMatchObject({ changed: true, previousVersion: r.version, deleted: ['github/repo/a/1.json'] });
    expect(c.written).toEqual(['github/repo/a/3.json']);
    expect(c.unchanged).toBe(1);
    const h = await refs.history('github/repo/a/3.json');
    expect(h.entries[0]!.parents).toEqual([r.version]);
    // Two documents with the same identity in one batch are refused.
    await expect(docs.putMany([repoDoc('dup'), repoDoc('dup', 2)])).rejects.toBeInstanceOf(InvalidKey);
  });

  it('commit carries _docdb/ metadata keys in the same commit, and refuses metadata outside that prefix', async () => {
    const { docs, refs } = fresh();
    const c = await docs.commit([
      { op: 'put', document: repoDoc('a/1') },
      { op: 'meta', key: '_docdb/state/p.json', value: '{"n":1}\n' },
      { op: 'meta', key: '_docdb/state/q.json', value: new Uint8Array([1, 2]) },
    ]);
    expect(c.written.sort()).toEqual(['_docdb/state/p.json', '_docdb/state/q.json', 'github/repo/a/1.json']);
    expect((await refs.history('_docdb/state/p.json')).entries.map((e) => e.version)).toEqual([c.version]);
    expect(new TextDecoder().decode((await refs.get('_docdb/state/p.json'))!.value)).toBe('{"n":1}\n');
    // Metadata is never a document: list skips it.
    expect((await docs.list()).documents.map((d) => d.key)).toEqual(['github/repo/a/1.json']);
    // value null deletes, in one commit with a document change.
    const d = await docs.commit([
      { op: 'meta', key: '_docdb/state/q.json', value: null },
      { op: 'put', document: repoDoc('a/2') },
    ]);
    expect(d).toMatchObject({ changed: true, deleted: ['_docdb/state/q.json'], written: ['github/repo/a/2.json'] });
    for (const key of ['github/repo/a/1.json', '_docdb/', '_docdbx/s.json', '../_docdb/x', 'state.json']) {
      const e = await docs.commit([{ op: 'meta', key, value: 'x' }]).catch((err: unknown) => err);
      expect(e, key).toBeInstanceOf(InvalidDocument);
      expect((e as InvalidDocument).data.field).toBe('ops[0].key');
    }
    const v = await docs.commit([{ op: 'meta', key: '_docdb/x', value: 1 as never }]).catch((err: unknown) => err);
    expect((v as InvalidDocument).data.field).toBe('ops[0].value');
    expect(await refs.head()).toBe(d.version); // nothing written by the refused commits
  });

  it('get at a version, delete and history', async () => {
    const { docs } = fresh();
    const v1 = (await docs.put(repoDoc('o/r', { n: 1 }))).version!;
    const v2 = (await docs.put(repoDoc('o/r', { n: 2 }))).version!;
    const del = await docs.delete(ident('o/r'));
    expect(del.deleted).toEqual(['github/repo/o/r.json']);
    expect(await docs.get(ident('o/r'))).toBeNull();
    expect(await docs.get(ident('o/r'), { version: v1 })).toMatchObject({ version: v1, data: { n: 1 } });
    expect(await docs.get(ident('o/r'), { version: v2 })).toMatchObject({ version: v2, data: { n: 2 } });
    await expect(docs.get(ident('o/r'), { version: 'HEAD' })).rejects.toBeInstanceOf(InvalidVersion);
    expect((await docs.delete(ident('o/r'))).changed).toBe(false);
    const h = await docs.history(ident('o/r'));
    expect(h.entries.map((e) => e.version)).toEqual([del.version, v2, v1]);
    expect((await docs.history(ident('o/r'), { limit: 1 })).entries).toHaveLength(1);
    await expect(docs.history(ident('o/r'), { limit: 0 })).rejects.toBeInstanceOf(InvalidConfig);
  });

  it('get refuses a blob whose envelope names another identity', async () => {
    const { docs, refs } = fresh();
    await refs.put('github/repo/x.json', encodeEnvelope(repoDoc('y')));
    const err = await docs.get(ident('x')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidDocument);
    expect((err as InvalidDocument).data.field).toBe('blob');
  });

  describe('list', () => {
    async function seeded() {
      const f = fresh();
      await f.docs.putMany([
        repoDoc('octo/hello-world'),
        repoDoc('octo/hello'),
        repoDoc('a/b'),
        { namespace: 'github', type: 'user', id: 'octo', data: {} },
        { namespace: 'npm', type: 'repo', id: 'left-pad', data: {} },
        { namespace: 'npm', type: 'package', id: '@scope/pkg', data: {} },
      ]);
      // Keys that are not documents: skipped by list, never an error.
      await f.refs.commit([
        { op: 'put', key: '_docdb/state/projection.json', value: '{}' },
        { op: 'put', key: 'README.md', value: '# hi' },
        { op: 'put', key: 'github/repo/notes.txt', value: 'x' },
        { op: 'put', key: 'github/loose.json', value: '{}' },
      ]);
      return f;
    }

    it('lists documents in key order, skipping non-document keys', async () => {
      const { docs } = await seeded();
      const all = await docs.list();
      expect(all.documents.map((d) => d.key)).toEqual([
        'github/repo/a/b.json',
        'github/repo/octo/hello-world.json',
        'github/repo/octo/hello.json',
        'github/user/octo.json',
        'npm/package/@scope/pkg.json',
        'npm/repo/left-pad.json',
      ]);
      expect(all.documents[1]).toMatchObject({ namespace: 'github', doc_type: 'repo', id: 'octo/hello-world' });
      expect(all.documents[1]!.blobSha).toBe(blobSha(encodeEnvelope(repoDoc('octo/hello-world'))));
      expect(all.nextCursor).toBeNull();
      expect(all.version).toBe(await docs.head());
      expect(all.requests).toBe(0);
    });

    it('filters by namespace, type, or both', async () => {
      const { docs } = await seeded();
      expect((await docs.list({ namespace: 'npm' })).documents.map((d) => d.id)).toEqual(['@scope/pkg', 'left-pad']);
      expect((await docs.list({ type: 'repo' })).documents.map((d) => `${d.namespace}:${d.id}`)).toEqual([
        'github:a/b',
        'github:octo/hello-world',
        'github:octo/hello',
        'npm:left-pad',
      ]);
      expect((await docs.list({ namespace: 'github', type: 'user' })).documents.map((d) => d.id)).toEqual(['octo']);
      expect((await docs.list({ namespace: 'none' })).documents).toEqual([]);
      await expect(docs.list({ namespace: '_docdb' })).rejects.toBeInstanceOf(InvalidIdentity);
      await expect(docs.list({ type: 'a/b' })).rejects.toBeInstanceOf(InvalidIdentity);
    });

    it('paginates with limit and cursor, pinned to the first page version', async () => {
      const { docs } = await seeded();
      const all = (await docs.list()).documents.map((d) => d.key);
      const p1 = await docs.list({ limit: 4 });
      expect(p1.documents.map((d) => d.key)).toEqual(all.slice(0, 4));
      expect(p1.nextCursor).not.toBeNull();
      // A write between pages does not shift later pages.
      await docs.put(repoDoc('0-first'));
      const p2 = await docs.list({ limit: 4, cursor: p1.nextCursor! });
      expect(p2.version).toBe(p1.version);
      expect(p2.documents.map((d) => d.key)).toEqual(all.slice(4));
      expect(p2.nextCursor).toBeNull();
      // Exactly-full last page: no further cursor.
      const exact = await docs.list({ limit: 7 });
      expect(exact.documents).toHaveLength(7);
      expect(exact.nextCursor).toBeNull();
      // Page through a filtered list one by one.
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await docs.list({ type: 'repo', limit: 1, ...(cursor ? { cursor } : {}) });
        seen.push(...page.documents.map((d) => d.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(['0-first', 'a/b', 'octo/hello-world', 'octo/hello', 'left-pad']);
    });

    it('rejects bad limits, cursors and versions', async () => {
      const { docs } = await seeded();
      for (const limit of [0, -1, 1.5, Number.NaN]) {
        const err = await docs.list({ limit }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InvalidConfig);
        expect((err as InvalidConfig).data.field).toBe('limit');
      }
      for (const cursor of ['', 'not a cursor!', 'YWJj']) {
        const err = await docs.list({ cursor }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InvalidConfig);
        expect((err as InvalidConfig).data.field).toBe('cursor');
      }
      const p1 = await docs.list({ limit: 1 });
      const v2 = (await docs.put(repoDoc('new'))).version!;
      await expect(docs.list({ cursor: p1.nextCursor!, version: v2 })).rejects.toBeInstanceOf(InvalidConfig);
      await expect(docs.list({ version: 'tip' })).rejects.toBeInstanceOf(InvalidVersion);
    });

    it('lists an old version and an empty section', async () => {
      const { docs } = fresh();
      expect(await docs.list()).toMatchObject({ documents: [], version: null, nextCursor: null });
      const v1 = (await docs.put(repoDoc('one'))).version!;
      await docs.put(repoDoc('two'));
      expect((await docs.list({ version: v1 })).documents.map((d) => d.id)).toEqual(['one']);
    });
  });

  it('property: documents round-trip and re-putting any key permutation is a no-op', async () => {
    const { docs } = fresh();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })), async (data) => {
        const id = `prop/${n++}`;
        const put = await docs.put(repoDoc(id, data));
        const reversed = Object.fromEntries(Object.entries(data).reverse());
        expect((await docs.put(repoDoc(id, reversed))).changed).toBe(false);
        const got = await docs.get(ident(id));
        expect(got?.version).toBe(put.version);
        expect(got?.data).toEqual(JSON.parse(JSON.stringify(data)));
      }),
      { numRuns: 40 },
    );
  });
});
