/**
 * Crash safety (issue 18 §9): a writer killed at any point of a 10,000-document write leaves the section
 * at a complete commit — every document of one write, never a mix — a git repository that passes
 * `git fsck --strict`, and a re-run that completes with the right content. The kill points are chosen by
 * what the writer did (the k-th API request answered, the k-th git command started), not by time; every
 * document is checked by its blob SHA.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListEntry } from '../../src/core/refstore.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { GitRefStore } from '../../src/stores/git/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/fetch.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, tempDir } from '../git/helpers.js';
import { expectedShas } from './crash-documents.js';

const WRITER = resolve(import.meta.dirname, 'crash-writer.ts');
const COUNT = 10_000;
const TOKEN = 'ghp_crash_safety_writer';

type Exit = { code: number | null; signal: NodeJS.Signals | null; out: string };

/** Run the writer child; `onStart` gets the child (to kill it). */
function writeSection(args: string[], label: string, onStart?: (child: ChildProcess) => void): Promise<Exit> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args, String(COUNT), label], {
    env: { ...process.env, ...GIT_TEST_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onStart?.(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((done) => child.on('exit', (code, signal) => done({ code, signal, out })));
}

/** Which of `labels` the listed section is entirely (null when it does not exist); fails on any mix. */
function wholeWrite(entries: readonly ListEntry[], labels: readonly string[]): string | null {
  if (entries.length === 0) return null;
  const docs = entries.filter((e) => e.key.startsWith('crash/'));
  for (const label of labels) {
    const want = expectedShas(COUNT, label);
    if (docs.length === COUNT && docs.every((e) => want.get(e.key) === e.blobSha)) return label;
  }
  throw new Error(
    `the section holds ${docs.length} documents that are not all of one of the writes ${labels.join(', ')}`,
  );
}

describe('GitHub API store against the emulator, killed after the k-th answered request', () => {
  let em: EmulatorHandle;
  let answered = 0;
  let killAt = 0;
  let current: ChildProcess | undefined;
  beforeAll(async () => {
    em = await startEmulator({
      onResponse: () => {
        answered++;
        // The request has taken effect in the emulator; the writer dies before it reads the reply.
        if (answered === killAt) current?.kill('SIGKILL');
      },
    });
    em.state.addToken(TOKEN, { login: 'crash', repos: '*' });
    em.state.createRepo('crash/section');
  });
  afterAll(() => em?.stop());

  const write = (label: string, at: number) => {
    answered = 0;
    killAt = at;
    return writeSection(['api', em.url, TOKEN, 'crash/section'], label, (c) => {
      current = c;
    });
  };
  const listed = async () => {
    const store = new RemoteApiRefStore({
      transport: fetchTransport(),
      apiUrl: em.url,
      token: TOKEN,
      owner: 'crash',
      repo: 'section',
    });
    return (await store.list()).entries;
  };

  it('every kill point of an update leaves the old or the new section whole; a re-run completes; fsck is clean', {
    timeout: 300_000,
  }, async () => {
    const first = await write('v1', 0);
    expect(first.code, first.out).toBe(0);
    const requests = answered; // what a write of 10,000 documents asks for
    expect(requests).toBeGreaterThan(3);
    expect(wholeWrite(await listed(), ['v1'])).toBe('v1');
    let now = 'v1';
    // The first request, one in the middle (tree uploads), and the last three: tree, commit, ref update,
    // each killed after it took effect and before the writer read the reply.
    const points = [...new Set([1, Math.ceil(requests / 2), requests - 2, requests - 1, requests])].filter(
      (k) => k >= 1,
    );
    for (const k of points) {
      const killed = await write(`v2-${k}`, k);
      expect(killed.signal, killed.out).toBe('SIGKILL');
      now = wholeWrite(await listed(), [now, `v2-${k}`])!;
    }
    const rerun = await write('v3', 0);
    expect(rerun.code, rerun.out).toBe(0);
    expect(wholeWrite(await listed(), ['v3'])).toBe('v3');
    const dir = tempDir();
    try {
      await em.exportBareRepo('crash/section', join(dir.dir, 'export.git'));
      fsckStrict(join(dir.dir, 'export.git'));
    } finally {
      dir.cleanup();
    }
  });
});

describe('GitRefStore, killed as the k-th git command starts', () => {
  it('every kill point leaves the ref at a complete commit and fsck --strict clean; a re-run completes', {
    timeout: 300_000,
  }, async () => {
    const tmp = tempDir();
    try {
      const repo = bareRepo(tmp.dir, 'data.git');
      const counter = join(tmp.dir, 'calls');
      const killAt = join(tmp.dir, 'kill-at');
      const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
      const wrapper = join(tmp.dir, 'git');
      // Count the writer's git commands; at the chosen one, kill the writer (this git's parent) first.
      writeFileSync(
        wrapper,
        `#!/bin/sh\nn=$(($(cat '${counter}') + 1)); echo $n > '${counter}'\n[ "$n" = "$(cat '${killAt}')" ] && kill -9 $PPID\nexec '${real}' "$@"\n`,
        { mode: 0o755 },
      );
      const write = (label: string, k: number) => {
        writeFileSync(counter, '0');
        writeFileSync(killAt, String(k));
        return writeSection(['git', repo, wrapper, '-'], label);
      };
      const listed = async () => {
        const store = new GitRefStore({ dir: repo, env: GIT_TEST_ENV });
        try {
          return (await store.list()).entries;
        } finally {
          await store.close();
        }
      };
      const first = await write('v1', 0);
      expect(first.code, first.out).toBe(0);
      const commands = Number(readFileSync(counter, 'utf8'));
      expect(commands).toBeGreaterThan(1);
      expect(wholeWrite(await listed(), ['v1'])).toBe('v1');
      let now = 'v1';
      for (let k = 1; k <= commands; k++) {
        const killed = await write(`v2-${k}`, k);
        expect(killed.signal, killed.out).toBe('SIGKILL');
        fsckStrict(repo);
        now = wholeWrite(await listed(), [now, `v2-${k}`])!;
      }
      expect((await write('v3', 0)).code).toBe(0);
      expect(wholeWrite(await listed(), ['v3'])).toBe('v3');
      fsckStrict(repo);
    } finally {
      tmp.cleanup();
    }
  });
});
