/**
 * A compaction killed (SIGKILL) at any point leaves the section at a complete, readable commit: either the
 * whole old history or the whole new one (3 commits with the original newest trees), never a half-moved
 * ref; every document reads back; a re-run finishes. Kill points are chosen by what the compaction did
 * (the k-th API request answered, the k-th git command started), not by time — the harness of
 * __tests__/reliability/crash-safety.test.ts.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefStore } from '../../src/core/refstore.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { GitRefStore } from '../../src/stores/git/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/fetch.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, git, tempDir } from '../git/helpers.js';

const CHILD = resolve(import.meta.dirname, 'compact-child.ts');
const TOKEN = 'ghp_compact_kill_child';
const REF = 'refs/docdb/documents';
const text = (b: Uint8Array) => new TextDecoder().decode(b);

type Exit = { code: number | null; signal: NodeJS.Signals | null; out: string };

function compact(args: string[], onStart?: (child: ChildProcess) => void): Promise<Exit> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    env: { ...process.env, ...GIT_TEST_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onStart?.(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((done) => child.on('exit', (code, signal) => done({ code, signal, out })));
}

/**
 * The section is the old history (returns 'old') or the compacted one ('new'), wholly, and every document
 * reads back as at the tip before; anything else fails.
 */
async function whole(store: RefStore, oldTrees: string[]): Promise<'old' | 'new'> {
  const entries = (await store.commits!()).entries;
  const trees = entries.map((e) => e.tree);
  expect(text((await store.get('state.json'))!.value)).toBe(`{"n":${oldTrees.length - 1}}`);
  expect((await store.list({ prefix: 'log/' })).entries).toHaveLength(oldTrees.length);
  if (trees.length === oldTrees.length) {
    expect(trees).toEqual(oldTrees);
    return 'old';
  }
  expect(trees).toEqual(oldTrees.slice(0, 3));
  expect(entries[2]!.parents).toEqual([]);
  return 'new';
}

describe('compaction on the GitHub API (emulator), killed after the k-th answered request', () => {
  let em: EmulatorHandle;
  let answered = 0;
  let killAt = 0;
  let current: ChildProcess | undefined;
  beforeAll(async () => {
    em = await startEmulator({
      onResponse: () => {
        answered++;
        // The request took effect in the emulator; the child dies before it reads the reply.
        if (answered === killAt) current?.kill('SIGKILL');
      },
    });
    em.state.addToken(TOKEN, { login: 'kill', repos: '*' });
  });
  afterAll(() => em?.stop());

  let n = 0;
  /** A fresh repository whose section has 8 commits; its reader and the trees, newest first. */
  function seeded() {
    const name = `kill/section-${++n}`;
    em.state.createRepo(name);
    for (let i = 0; i < 8; i++) {
      em.state.commitFiles(name, {
        branch: REF,
        orphan: i === 0,
        files: { [`log/${i}.json`]: `{"i":${i}}`, 'state.json': `{"n":${i}}` },
      });
    }
    const db = em.state.repo(name).db;
    const trees: string[] = [];
    for (let c = db.readRef(REF); c; c = db.getCommit(c).parents[0]) trees.push(db.getCommit(c).tree);
    const [owner, repo] = name.split('/') as [string, string];
    const reader = new RemoteApiRefStore({ transport: fetchTransport(), apiUrl: em.url, token: TOKEN, owner, repo });
    return { name, reader, trees };
  }
  const run = (name: string, at: number) => {
    answered = 0;
    killAt = at;
    return compact(['api', em.url, TOKEN, name], (c) => {
      current = c;
    });
  };

  it('every kill point leaves the old or the new history whole; a re-run finishes', { timeout: 300_000 }, async () => {
    const probe = seeded();
    const full = await run(probe.name, 0);
    expect(full.code, full.out).toBe(0);
    const requests = answered;
    expect(requests).toBe(1 + 3 + 1 + 1); // list, 3 commits, id query, updateRefs
    expect(await whole(probe.reader, probe.trees)).toBe('new');
    const seen = new Set<string>();
    for (let k = 1; k <= requests; k++) {
      const s = seeded();
      const killed = await run(s.name, k);
      expect(killed.signal, killed.out).toBe('SIGKILL');
      seen.add(await whole(s.reader, s.trees));
      const rerun = await run(s.name, 0);
      expect(rerun.code, rerun.out).toBe(0);
      expect(await whole(s.reader, s.trees)).toBe('new');
    }
    // Killed before the move: the old history; killed after the mutation took effect: the new one.
    expect([...seen].sort()).toEqual(['new', 'old']);
  });
});

describe('compaction on GitRefStore, killed as the k-th git command starts', () => {
  it('every kill point leaves the ref at a complete history, fsck --strict clean; a re-run finishes', {
    timeout: 300_000,
  }, async () => {
    const tmp = tempDir();
    try {
      const counter = join(tmp.dir, 'calls');
      const killAt = join(tmp.dir, 'kill-at');
      const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
      const wrapper = join(tmp.dir, 'git');
      writeFileSync(
        wrapper,
        `#!/bin/sh\nn=$(($(cat '${counter}') + 1)); echo $n > '${counter}'\n[ "$n" = "$(cat '${killAt}')" ] && kill -9 $PPID\nexec '${real}' "$@"\n`,
        { mode: 0o755 },
      );
      let n = 0;
      const seeded = async () => {
        const dir = bareRepo(tmp.dir, `data-${++n}.git`);
        const s = new GitRefStore({ dir, env: GIT_TEST_ENV });
        for (let i = 0; i < 8; i++) {
          await s.commit([
            { op: 'put', key: `log/${i}.json`, value: `{"i":${i}}` },
            { op: 'put', key: 'state.json', value: `{"n":${i}}` },
          ]);
        }
        await s.close();
        const trees = git(['--git-dir', dir, 'log', '--format=%T', REF]).trim().split('\n');
        return { dir, trees };
      };
      const run = (dir: string, k: number) => {
        writeFileSync(counter, '0');
        writeFileSync(killAt, String(k));
        return compact(['git', dir, wrapper]);
      };
      const check = async (dir: string, trees: string[]) => {
        fsckStrict(dir);
        const reader = new GitRefStore({ dir, env: GIT_TEST_ENV });
        try {
          return await whole(reader, trees);
        } finally {
          await reader.close();
        }
      };
      const probe = await seeded();
      expect((await run(probe.dir, 0)).code).toBe(0);
      const commands = Number(readFileSync(counter, 'utf8'));
      expect(commands).toBeGreaterThan(1);
      expect(await check(probe.dir, probe.trees)).toBe('new');
      const seen = new Set<string>();
      for (let k = 1; k <= commands; k++) {
        const s = await seeded();
        const killed = await run(s.dir, k);
        expect(killed.signal, killed.out).toBe('SIGKILL');
        seen.add(await check(s.dir, s.trees));
        expect((await run(s.dir, 0)).code).toBe(0);
        expect(await check(s.dir, s.trees)).toBe('new');
      }
      expect(seen.has('old')).toBe(true);
    } finally {
      tmp.cleanup();
    }
  });
});
