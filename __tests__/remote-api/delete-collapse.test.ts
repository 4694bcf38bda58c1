/**
 * A commit in parts that deletes every key below a directory sends that directory as ONE `sha: null`
 * entry (delete-collapse.ts): checked on the decision alone (cached levels given by hand) and on the
 * emulator, whose create-tree applies the entries as GitHub does — the resulting tree must be exactly the
 * one the per-key deletes give (compared with the store's own local tree computation and by reading keys).
 */
import { describe, expect, it } from 'vitest';
import type { CachedTreeEntry } from '../../src/cache/git-cache.js';
import { DocumentStore } from '../../src/document/index.js';
import { collapseDeletes } from '../../src/stores/remote-api/delete-collapse.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulatorPerFile, since, store, untimedFetch } from './helpers.js';

/** Levels by made-up SHA: `tree(name)` is a directory entry, `blob(name)` a key. */
const blob = (name: string): CachedTreeEntry => ({ name, mode: '100644', type: 'blob', sha: `b-${name}` });
const tree = (name: string, sha: string): CachedTreeEntry => ({ name, mode: '040000', type: 'tree', sha });

function levels(map: Record<string, CachedTreeEntry[]>) {
  return async (sha: string) => map[sha];
}

// root: gh/{repo/{a,b,sub/{c}}, other/{x}}, top.json
const BASE = {
  root: [tree('gh', 'gh'), blob('top.json')],
  gh: [tree('repo', 'repo'), tree('other', 'other')],
  repo: [blob('a.json'), blob('b.json'), tree('sub', 'sub')],
  sub: [blob('c.json')],
  other: [blob('x.json')],
};
const ALL_REPO = ['gh/repo/a.json', 'gh/repo/b.json', 'gh/repo/sub/c.json'];
const none = () => false;

describe('collapseDeletes decides from cached levels', () => {
  it('every key of a directory (nested ones included): one entry for the highest such directory', async () => {
    const out = await collapseDeletes(levels(BASE), 'root', ALL_REPO, none);
    expect(out).toEqual([{ path: 'gh/repo', mode: '040000', sha: null }]);
  });

  it('a key of the directory left out: its complete subdirectory folds, the rest go one by one', async () => {
    const out = await collapseDeletes(levels(BASE), 'root', ['gh/repo/a.json', 'gh/repo/sub/c.json'], none);
    expect(out).toEqual([
      { path: 'gh/repo/a.json', mode: '100644', sha: null },
      { path: 'gh/repo/sub', mode: '040000', sha: null },
    ]);
  });

  it('a directory the same write puts a key into is never deleted whole', async () => {
    const out = await collapseDeletes(levels(BASE), 'root', ALL_REPO, (d) => d === 'gh/repo' || d === 'gh');
    expect(out).toEqual([
      { path: 'gh/repo/a.json', mode: '100644', sha: null },
      { path: 'gh/repo/b.json', mode: '100644', sha: null },
      { path: 'gh/repo/sub', mode: '040000', sha: null },
    ]);
  });

  it('a level that is not cached proves nothing: its keys are deleted one by one', async () => {
    const { repo: _evicted, ...rest } = BASE;
    const out = await collapseDeletes(levels(rest), 'root', ALL_REPO, none);
    expect(out.map((e) => e.path)).toEqual(ALL_REPO);
    expect(out.every((e) => e.mode === '100644')).toBe(true);
  });

  it('everything deleted: the root is never one entry (top-level directories and keys are)', async () => {
    const out = await collapseDeletes(levels(BASE), 'root', [...ALL_REPO, 'gh/other/x.json', 'top.json'], none);
    expect(out).toEqual([
      { path: 'top.json', mode: '100644', sha: null },
      { path: 'gh', mode: '040000', sha: null },
    ]);
  });
});

const fx = emulatorPerFile();

/** A transport that keeps the body of every create-tree request. */
function treeBodies(): {
  transport: HttpTransport;
  bodies: { tree: { path: string; mode: string; type: string }[] }[];
} {
  const inner = untimedFetch();
  const bodies: { tree: { path: string; mode: string; type: string }[] }[] = [];
  const transport: HttpTransport = {
    request: (req) => {
      if (req.method === 'POST' && new URL(req.url).pathname.endsWith('/git/trees') && req.body) {
        bodies.push(JSON.parse(new TextDecoder().decode(req.body as Uint8Array)));
      }
      return inner.request(req);
    },
  };
  return { transport, bodies };
}

const docs = (type: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ namespace: 'gh', type, id: `o/r${i}`, data: { i, pad: 'x'.repeat(200) } }));

describe('on the emulator: moving a type deletes the old type as one tree entry', () => {
  it('2,000 documents moved: one 040000 entry, the same tree as per-key deletes, nothing else lost', async () => {
    await new DocumentStore(store(fx.em, fx.repo)).putMany([...docs('repo', 2000), ...docs('keep', 3)]);
    const { transport, bodies } = treeBodies();
    const warnings: string[] = [];
    const s = store(fx.em, fx.repo, {
      transport,
      maxInlineBytes: 64 * 1024,
      logger: (e) => {
        if (e.level === 'warn') warnings.push(e.message);
      },
    });
    const from = fx.em.requests.length;
    const r = await new DocumentStore(s).migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [{ op: 'move-type', namespace: 'hub', type: 'repo' }],
    });
    expect(r.counts.moved).toBe(2000);
    const entries = bodies.flatMap((b) => b.tree);
    const deletes = entries.filter((e) => (e as { sha?: unknown }).sha === null);
    expect(deletes).toEqual([{ path: 'gh/repo', mode: '040000', type: 'tree', sha: null }]);
    // The store computes the new tree locally from per-key deletes and compares it with GitHub's root:
    // a different tree would be logged (and not cached).
    expect(warnings).toEqual([]);
    expect(since(fx.em, from).filter((q) => q.operation === 'git/create-commit')).toHaveLength(1);
    const fresh = new DocumentStore(store(fx.em, fx.repo));
    expect((await fresh.list({ namespace: 'gh', type: 'repo' })).documents).toHaveLength(0);
    expect((await fresh.list({ namespace: 'gh', type: 'keep' })).documents).toHaveLength(3);
    expect((await fresh.get({ namespace: 'hub', doc_type: 'repo', id: 'o/r1999' }))?.data).toEqual({
      i: 1999,
      pad: 'x'.repeat(200),
    });
  }, 60_000);
});
