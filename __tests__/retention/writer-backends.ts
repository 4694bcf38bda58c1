/**
 * The backends the eight-writers compaction scenario runs on (compact-writers.test.ts): each opens stores
 * on ONE section (every call a new store with its own cache or connection, as another machine or tab
 * would) and reads commits back WITHOUT the store under test — real git on the repository for the git
 * stores (for git-http: the bare repository behind `git http-backend`), the emulator's object database, the
 * raw IndexedDB records — so a store that reported a tree it did not write would be caught.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IDBFactory } from 'fake-indexeddb';
import { decodeCommit } from '../../src/core/git/objects.js';
import type { RefStore } from '../../src/core/refstore.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { GitRefStore, SubprocessGitRefStore } from '../../src/stores/git/index.js';
import { IndexedDbRefStore, openDocDbDatabase, STORES } from '../../src/stores/indexeddb/index.js';
import { bareRepo, GIT_TEST_ENV, git, steppingClock, tempDir } from '../git/helpers.js';
import { gitHttpFixture } from '../git-http/helpers.js';
import { emulator, freshRepo, OWNER, store as remoteStore } from '../remote-api/helpers.js';

export const REF = 'refs/docdb/documents';

export interface WriterBackend {
  /** A new store on the section (a writer of its own). */
  open(): RefStore;
  /** The tree of commit `sha`, read without the stores. */
  treeOf(sha: string): Promise<string>;
  /** The section's first-parent chain, newest first, read without the stores. */
  chain(): Promise<string[]>;
  /** Stops servers, closes stores, checks the repository (`git fsck --strict`) and removes it. */
  cleanup(): Promise<void>;
}

/** `git` on a bare repository: a commit's tree, and the ref's first-parent chain. */
function gitReader(dir: string): Pick<WriterBackend, 'treeOf' | 'chain'> {
  return {
    treeOf: async (sha) => git(['--git-dir', dir, 'rev-parse', `${sha}^{tree}`]).trim(),
    chain: async () => git(['--git-dir', dir, 'rev-list', '--first-parent', REF]).trim().split('\n'),
  };
}

/** Stores made by `make`; `cleanup` closes them all (a git store holds a `cat-file --batch`), then `after`. */
function opener(make: (i: number) => RefStore, after: () => void = () => {}) {
  const opened: RefStore[] = [];
  return {
    open: () => {
      const s = make(opened.length);
      opened.push(s);
      return s;
    },
    cleanup: async () => {
      await Promise.all(opened.map((s) => (s as { close?: () => Promise<void> }).close?.()));
      after();
    },
  };
}

async function onEmulator(): Promise<WriterBackend> {
  const em: EmulatorHandle = await emulator();
  const repo = freshRepo(em);
  const db = () => em.state.repo(`${OWNER}/${repo}`).db;
  return {
    open: () => remoteStore(em, repo, { ref: REF, retryConcurrentWrites: 30 }),
    treeOf: async (sha) => db().getCommit(sha).tree,
    chain: async () => {
      const out: string[] = [];
      for (let c = db().readRef(REF); c; c = db().getCommit(c).parents[0]) out.push(c);
      return out;
    },
    cleanup: () => em.stop(),
  };
}

async function onGitRefStore(): Promise<WriterBackend> {
  const tmp = tempDir();
  const dir = bareRepo(tmp.dir);
  const now = steppingClock();
  const stores = opener(() => new GitRefStore({ dir, env: GIT_TEST_ENV, now, retryConcurrentWrites: 30 }), tmp.cleanup);
  return { ...stores, ...gitReader(dir) };
}

async function onSubprocessGitRefStore(): Promise<WriterBackend> {
  const tmp = tempDir();
  const dir = bareRepo(tmp.dir);
  const now = steppingClock();
  const stores = opener(
    (i) =>
      new SubprocessGitRefStore({
        remote: pathToFileURL(dir).href,
        dir: join(tmp.dir, `cache-${i}.git`),
        env: GIT_TEST_ENV,
        now,
        retryConcurrentWrites: 30,
      }),
    tmp.cleanup,
  );
  return { ...stores, ...gitReader(dir) };
}

async function onGitHttp(): Promise<WriterBackend> {
  const fx = await gitHttpFixture();
  // Each writer its own store and cache, pushing through git's own http-backend; fsck --strict on cleanup.
  return { open: () => fx.store({ writeBackoffBaseMs: 5 }), ...gitReader(fx.repoDir), cleanup: () => fx.cleanup() };
}

async function onIndexedDb(): Promise<WriterBackend> {
  const indexedDB = new IDBFactory();
  const name = 'writers';
  const now = steppingClock();
  // Every writer a connection of its own to one database, as tabs of one browser profile.
  const stores = opener(() => new IndexedDbRefStore({ indexedDB, name, now, retryConcurrentWrites: 30 }));
  const read = async <T>(store: string, key: string): Promise<T> => {
    const db = await openDocDbDatabase({ indexedDB, name });
    try {
      const req = db.transaction(store, 'readonly').objectStore(store).get(key);
      return await new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result as T);
        req.onerror = () => reject(req.error);
      });
    } finally {
      db.close();
    }
  };
  const commit = async (sha: string) => decodeCommit(await read<Uint8Array>(STORES.commits, sha));
  return {
    ...stores,
    treeOf: async (sha) => (await commit(sha)).tree,
    chain: async () => {
      const out: string[] = [];
      for (let c = await read<string | undefined>(STORES.refs, REF); c; c = (await commit(c)).parents[0]) out.push(c);
      return out;
    },
  };
}

/** Every backend of the scenario, by name. */
export const WRITER_BACKENDS: [string, () => Promise<WriterBackend>][] = [
  ['GitHub API (emulator)', onEmulator],
  ['GitRefStore', onGitRefStore],
  ['SubprocessGitRefStore', onSubprocessGitRefStore],
  ['GitHttpRefStore (git http-backend)', onGitHttp],
  ['IndexedDbRefStore (fake-indexeddb)', onIndexedDb],
];
