/** MemoryRefStore specifics: its commits are real git commits (checked with git), sections, options. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { InvalidConfig, InvalidVersion } from '../../src/core/errors.js';
import { DEFAULT_AUTHOR, EMPTY_TREE_SHA, MemoryRefStore, ObjectDb } from '../../src/stores/memory/index.js';
import { type GitRepo, makeRepo } from '../core/git-helpers.js';

let repo: GitRepo;
beforeAll(() => {
  repo = makeRepo();
});
afterAll(() => repo.cleanup());

const T0 = 1_700_000_000;

describe('MemoryRefStore commits are the commits git would make', () => {
  it('same tree, commit and parent SHAs as git update-index / write-tree / commit-tree', async () => {
    const store = new MemoryRefStore({ now: () => T0 * 1000 + 999 });
    const key = 'github/repo/octo/hello-world.json';
    const value = '{\n  "data": {}\n}\n';
    const r1 = await store.put(key, value);
    const r2 = await store.put('github/repo/ünï/çødé.json', 'x', { message: 'second\n\nwith body' });

    const env = {
      GIT_INDEX_FILE: `${repo.dir}/index-mem`,
      GIT_AUTHOR_NAME: DEFAULT_AUTHOR.name,
      GIT_AUTHOR_EMAIL: DEFAULT_AUTHOR.email,
      GIT_COMMITTER_NAME: DEFAULT_AUTHOR.name,
      GIT_COMMITTER_EMAIL: DEFAULT_AUTHOR.email,
      GIT_AUTHOR_DATE: `@${T0} +0000`,
      GIT_COMMITTER_DATE: `@${T0} +0000`,
    };
    const blob1 = repo.text(['hash-object', '-w', '--stdin'], { input: value });
    repo.git(['update-index', '--add', '--index-info'], { input: `100644 ${blob1}\t${key}\n`, env });
    const tree1 = repo.text(['write-tree'], { env });
    const c1 = repo.text(['commit-tree', tree1], { input: `docdb: put ${key}`, env });
    expect(r1.version).toBe(c1);

    const blob2 = repo.text(['hash-object', '-w', '--stdin'], { input: 'x' });
    repo.git(['update-index', '-z', '--add', '--index-info'], {
      input: `100644 ${blob2}\tgithub/repo/ünï/çødé.json\x00`,
      env,
    });
    const tree2 = repo.text(['write-tree'], { env });
    const c2 = repo.text(['commit-tree', tree2, '-p', c1], { input: 'second\n\nwith body', env });
    expect(r2.version).toBe(c2);

    // Every object the store holds is a well-formed git object with the id git gives it.
    for (const sha of store.db.objectIds()) {
      const obj = store.db.get(sha)!;
      expect(repo.text(['hash-object', '-w', '-t', obj.type, '--stdin'], { input: obj.body })).toBe(sha);
    }
    repo.git(['update-ref', 'refs/docdb/documents', c2]);
    repo.git(['fsck', '--strict', '--no-dangling']);
    expect(repo.text(['rev-list', 'refs/docdb/documents']).split('\n')).toEqual([c2, c1]);
    expect(repo.text(['cat-file', '-p', `${c2}:${key}`])).toBe(value.trimEnd());
  });

  it('commit time comes from the injected clock (whole seconds, UTC)', async () => {
    const store = new MemoryRefStore({
      now: () => Date.UTC(2024, 0, 2, 3, 4, 5, 678),
      author: { name: 'Bot', email: 'bot@x.test' },
    });
    await store.put('k', 'v');
    const [entry] = (await store.history('k')).entries;
    expect(entry!.author).toEqual({ name: 'Bot', email: 'bot@x.test', date: '2024-01-02T03:04:05Z' });
    expect(entry!.committer).toEqual(entry!.author);
    // Same clock, same content, same author → same SHA: the store is deterministic.
    const again = new MemoryRefStore({
      now: () => Date.UTC(2024, 0, 2, 3, 4, 5, 0),
      author: { name: 'Bot', email: 'bot@x.test' },
    });
    expect((await again.put('k', 'v')).version).toBe(entry!.version);
  });
});

describe('MemoryRefStore options and sections', () => {
  it('defaults to refs/docdb/documents and validates the ref', () => {
    expect(new MemoryRefStore().ref).toBe('refs/docdb/documents');
    expect(new MemoryRefStore({ ref: 'refs/docdb/proj/documents' }).ref).toBe('refs/docdb/proj/documents');
    expect(() => new MemoryRefStore({ ref: 'refs/docdb/bad..name' })).toThrow(InvalidConfig);
    expect(() => new MemoryRefStore({ ref: 'heads/main' })).toThrow(InvalidConfig);
  });

  it('sections on one ObjectDb are independent refs sharing objects', async () => {
    const db = new ObjectDb();
    const a = new MemoryRefStore({ db, ref: 'refs/docdb/a', now: () => 0 });
    const b = new MemoryRefStore({ db, ref: 'refs/docdb/b', now: () => 0 });
    await a.put('same.json', 'shared bytes');
    expect(await b.head()).toBeNull();
    expect(await b.get('same.json')).toBeNull();
    const sizeBefore = db.size;
    await b.put('same.json', 'shared bytes');
    // Identical blob and tree and (same clock, no parent) identical commit: only the ref is new.
    expect(db.size).toBe(sizeBefore);
    expect(await b.head()).toBe(await a.head());
    expect(db.listRefs('refs/docdb/').map((r) => r.ref)).toEqual(['refs/docdb/a', 'refs/docdb/b']);
  });

  it('rejects versions that are not commits (a tree or blob SHA, or unknown)', async () => {
    const store = new MemoryRefStore({ now: () => 0 });
    await store.put('k', 'v');
    const blob = (await store.get('k'))!.blobSha;
    for (const version of [blob, EMPTY_TREE_SHA, 'f'.repeat(40)]) {
      await expect(store.get('k', { version })).rejects.toBeInstanceOf(InvalidVersion);
      await expect(store.list({ version })).rejects.toBeInstanceOf(InvalidVersion);
    }
  });

  it('values are copied in and out (caller mutations never change stored data)', async () => {
    const store = new MemoryRefStore({ now: () => 0 });
    const input = utf8('original');
    await store.put('k', input);
    input[0] = 0x58;
    const out = (await store.get('k'))!.value;
    out[1] = 0x58;
    expect(new TextDecoder().decode((await store.get('k'))!.value)).toBe('original');
  });

  it('reports zero upstream requests on every result', async () => {
    const store = new MemoryRefStore({ now: () => 0 });
    expect((await store.put('k', 'v')).requests).toBe(0);
    expect((await store.get('k'))!.requests).toBe(0);
    expect((await store.list()).requests).toBe(0);
    expect((await store.history('k')).requests).toBe(0);
    expect(await store.delete('k')).toMatchObject({ requests: 0, changed: true });
  });
});
