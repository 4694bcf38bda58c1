/**
 * GitRefStore beyond the contract: commits byte-identical to src/core, the checkout left alone,
 * literal key paths in history, repository discovery, and the environment it runs git with.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConcurrentUpdate, GitError, InvalidConfig } from '../../src/core/errors.js';
import { encodeCommit } from '../../src/core/git/objects.js';
import type { Change } from '../../src/core/refstore.js';
import { GitRefStore } from '../../src/stores/git/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import {
  bareRepo,
  fsckStrict,
  GIT_TEST_ENV,
  git,
  gitWrapper,
  intruderBefore,
  loggedCalls,
  steppingClock,
  subcommand,
  tempDir,
} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(options: { working?: boolean } = {}) {
  const tmp = tempDir();
  let dir: string;
  if (options.working) {
    dir = join(tmp.dir, 'clone');
    git(['init', '-q', '-b', 'main', dir]);
  } else dir = bareRepo(tmp.dir);
  const stores: GitRefStore[] = [];
  const open = (extra: Partial<ConstructorParameters<typeof GitRefStore>[0]> = {}) => {
    const s = new GitRefStore({ dir, env: GIT_TEST_ENV, ...extra });
    stores.push(s);
    return s;
  };
  cleanups.push(async () => {
    await Promise.all(stores.map((s) => s.close()));
    tmp.cleanup();
  });
  return { tmp, dir, open };
}

const BATCHES: Change[][] = [
  [{ op: 'put', key: 'a.json', value: '{"a":1}\n' }],
  [
    { op: 'put', key: 'dir/sub/x.json', value: 'x' },
    { op: 'put', key: 'dir/y.json', value: new Uint8Array([0, 255, 1]) },
    { op: 'put', key: 'é/😀.json', value: 'unicode' },
  ],
  [{ op: 'put', key: 'a.json', value: '{"a":2}\n' }],
  [
    { op: 'delete', key: 'dir/sub/x.json' },
    { op: 'put', key: 'dir/z', value: '' },
  ],
  [{ op: 'delete', key: 'a.json' }],
  [
    { op: 'delete', key: 'dir/y.json' },
    { op: 'delete', key: 'dir/z' },
    { op: 'delete', key: 'é/😀.json' },
  ],
];

describe('GitRefStore commits', () => {
  it('are byte-identical to what src/core computes for the same inputs (MemoryRefStore)', async () => {
    const { dir, open } = setup();
    const store = open({ now: steppingClock(), author: { name: 'Ada', email: 'ada@example.com' } });
    const memory = new MemoryRefStore({ now: steppingClock(), author: { name: 'Ada', email: 'ada@example.com' } });
    for (const [i, batch] of BATCHES.entries()) {
      const message = i % 2 ? `batch ${i}\n\nwith a body` : undefined;
      const a = await store.commit(batch, message ? { message } : {});
      const b = await memory.commit(batch, message ? { message } : {});
      expect(a).toEqual(b);
      // The stored commit object, as real git reads it, is exactly core's encoding.
      const raw = execFileSync('git', ['--git-dir', dir, 'cat-file', 'commit', a.version!], { env: GIT_TEST_ENV });
      expect(Buffer.from(encodeCommit(memory.db.getCommit(b.version!))).equals(raw)).toBe(true);
    }
    // The last batch emptied the section: its tree is git's empty tree.
    expect(git(['--git-dir', dir, 'rev-parse', 'refs/docdb/documents^{tree}']).trim()).toBe(
      '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    );
    fsckStrict(dir);
  });

  it('never touches HEAD, the index or the working tree of a checkout', async () => {
    const { dir, open } = setup({ working: true });
    writeFileSync(join(dir, 'tracked.txt'), 'committed\n');
    git(['-C', dir, 'add', 'tracked.txt']);
    git(['-C', dir, 'commit', '-q', '-m', 'initial']);
    writeFileSync(join(dir, 'tracked.txt'), 'modified, not staged\n');
    writeFileSync(join(dir, 'staged.txt'), 'staged\n');
    git(['-C', dir, 'add', 'staged.txt']);
    writeFileSync(join(dir, 'untracked.txt'), 'untracked\n');
    const snapshot = () => ({
      head: readFileSync(join(dir, '.git/HEAD'), 'utf8'),
      main: git(['-C', dir, 'rev-parse', 'refs/heads/main']),
      index: readFileSync(join(dir, '.git/index')).toString('base64'),
      indexMtime: statSync(join(dir, '.git/index')).mtimeMs,
      // --no-optional-locks: status itself must not refresh (rewrite) the index it is checking.
      status: git(['--no-optional-locks', '-C', dir, 'status', '--porcelain']),
      files: readdirSync(dir).sort(),
      tracked: readFileSync(join(dir, 'tracked.txt'), 'utf8'),
    });
    const before = snapshot();
    const store = open();
    await store.commit(
      Array.from({ length: 150 }, (_, i) => ({ op: 'put' as const, key: `k/${i}.json`, value: `${i}` })),
    );
    await store.put('tracked.txt', 'a key named like a checked-out file');
    await store.delete('k/1.json');
    expect((await store.get('tracked.txt'))!.value).toEqual(
      new TextEncoder().encode('a key named like a checked-out file'),
    );
    expect(snapshot()).toEqual(before);
    fsckStrict(join(dir, '.git'));
  });

  it('ignores GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE inherited from a parent git process', async () => {
    const { tmp, dir, open } = setup();
    const other = bareRepo(tmp.dir, 'other.git');
    const store = open({
      env: { ...GIT_TEST_ENV, GIT_DIR: other, GIT_INDEX_FILE: join(tmp.dir, 'idx'), GIT_WORK_TREE: tmp.dir },
    });
    const { version } = await store.put('x.json', '1');
    expect(git(['--git-dir', dir, 'rev-parse', 'refs/docdb/documents']).trim()).toBe(version);
    expect(() => git(['--git-dir', other, 'rev-parse', '--verify', '-q', 'refs/docdb/documents'])).toThrow();
    expect(readdirSync(tmp.dir).sort()).toEqual(['other.git', 'repo.git']);
  });

  it('small writes are stored as loose objects, large ones as a pack (git transfer.unpackLimit)', async () => {
    const { dir, open } = setup();
    const store = open();
    await store.put('one.json', '1');
    expect(readdirSync(join(dir, 'objects/pack')).filter((f) => f.endsWith('.pack'))).toHaveLength(0);
    await store.commit(
      Array.from({ length: 200 }, (_, i) => ({ op: 'put' as const, key: `many/${i}`, value: `${i}` })),
    );
    expect(readdirSync(join(dir, 'objects/pack')).filter((f) => f.endsWith('.pack'))).toHaveLength(1);
    expect((await store.list({ prefix: 'many/' })).entries).toHaveLength(200);
    fsckStrict(dir);
  });
});

describe('GitRefStore compare-and-swap', () => {
  it('rebases onto the new tip after a lost update-ref, then ConcurrentUpdate(other) after the configured retries', async () => {
    const { tmp, dir, open } = setup();
    await open().put('base.json', 'base');
    // Just before every update-ref, another writer advances the section ref.
    const intruder = intruderBefore(dir, 'update-ref');
    const log = join(tmp.dir, 'calls.log');
    const store = open({ git: gitWrapper(tmp.dir, { log, before: intruder }), retryConcurrentWrites: 3 });
    const err = await store.put('mine.json', 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConcurrentUpdate);
    expect((err as ConcurrentUpdate).otherSha).toBe(
      git(['--git-dir', dir, 'rev-parse', 'refs/docdb/documents']).trim(),
    );
    expect((err as ConcurrentUpdate).data.attempts).toBe(4);
    const updates = loggedCalls(log).filter((c) => subcommand(c) === 'update-ref');
    expect(updates).toHaveLength(4);
    // Every attempt expected a different old value: the change was rebased on each new tip.
    expect(new Set(updates.map((u) => u.at(-1))).size).toBe(4);
    expect(git(['--git-dir', dir, 'ls-tree', '-r', '--name-only', 'refs/docdb/documents']).trim()).toBe('base.json');
    fsckStrict(dir);
  });
});

describe('GitRefStore keys are literal paths for git', () => {
  it('history of a key with pathspec magic characters matches only that key', async () => {
    const { open } = setup();
    const store = open({ now: steppingClock() });
    const star = await store.put('a*.json', 'star');
    const plain = await store.put('ab.json', 'plain');
    const magic = await store.put(':(glob)x', 'magic');
    await store.put('x', 'x');
    expect((await store.history('a*.json')).entries.map((e) => e.version)).toEqual([star.version]);
    expect((await store.history('ab.json')).entries.map((e) => e.version)).toEqual([plain.version]);
    expect((await store.history(':(glob)x')).entries.map((e) => e.version)).toEqual([magic.version]);
    expect(new TextDecoder().decode((await store.get(':(glob)x'))!.value)).toBe('magic');
    expect(new TextDecoder().decode((await store.get('a*.json'))!.value)).toBe('star');
  });

  it('history of a key that was once a directory lists only the commits that changed the value', async () => {
    const { open } = setup();
    const store = open({ now: steppingClock() });
    const memory = new MemoryRefStore({ now: steppingClock() });
    const steps: Change[][] = [
      [{ op: 'put', key: 'x/y', value: 'below' }],
      [{ op: 'delete', key: 'x/y' }],
      [{ op: 'put', key: 'x', value: 'a value now' }],
      [{ op: 'put', key: 'x y', value: 'space' }],
    ];
    for (const s of steps) expect(await store.commit(s)).toEqual(await memory.commit(s));
    const h = await store.history('x');
    expect(h.entries).toHaveLength(1);
    expect(h).toEqual(await memory.history('x'));
    expect(await store.history('x/y')).toEqual(await memory.history('x/y'));
  });
});

describe('GitRefStore repository discovery', () => {
  it('a path that is not a repository is a GitError, even inside another repository', async () => {
    const { tmp, dir } = setup({ working: true });
    const inside = join(dir, 'sub');
    mkdirSync(inside);
    for (const path of [inside, join(tmp.dir, 'absent')]) {
      const store = new GitRefStore({ dir: path, env: GIT_TEST_ENV });
      const err = await store.head().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GitError);
      expect((err as GitError).data.reason).toBe('not-a-repository');
      expect((err as Error).message).toMatch(/git init --bare/);
      await store.close();
    }
    // Nothing was written to the enclosing repository.
    expect(git(['-C', dir, 'for-each-ref']).trim()).toBe('');
  });

  it('options are validated before any I/O, naming the field', () => {
    const bad: [unknown, string][] = [
      [{ dir: '' }, 'dir'],
      [{ dir: '/x', ref: 'heads/main' }, 'ref'],
      [{ dir: '/x', ref: 'refs/docdb/a..b' }, 'ref'],
      [{ dir: '/x', author: { name: 'a<b', email: 'x@y' } }, 'author.name'],
      [{ dir: '/x', retryConcurrentWrites: -1 }, 'retryConcurrentWrites'],
      [{ dir: '/x', git: '' }, 'git'],
    ];
    for (const [options, field] of bad) {
      const err = (() => {
        try {
          new GitRefStore(options as ConstructorParameters<typeof GitRefStore>[0]);
        } catch (e) {
          return e;
        }
      })();
      expect(err, JSON.stringify(options)).toBeInstanceOf(InvalidConfig);
      expect((err as InvalidConfig).data.field).toBe(field);
    }
  });

  it('a section ref that points to a non-commit is reported, not misread', async () => {
    const { dir, open } = setup();
    const blob = git(['--git-dir', dir, 'hash-object', '-w', '--stdin'], { input: 'x' }).trim();
    git(['--git-dir', dir, 'update-ref', 'refs/docdb/documents', blob]);
    const err = await open()
      .get('k')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as Error).message).toMatch(/points to a blob/);
  });
});
