/**
 * A closed stdout ends the CLI quietly (issue 32 §9): `docdb doc export | head` and `docdb project --json |
 * head -c 600` used to end with "Error: write EPIPE … Unhandled 'error' event" and a stack trace. Now docdb
 * stops at its next write and exits with 141 — the status git and gh end with there (killed by SIGPIPE,
 * 128 + 13) — printing nothing. The CLI runs in its own process (src/cli/main.ts through tsx), its stdout a
 * pipe this test closes: at once, or after reading the first chunk of a long export.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OUTPUT_CLOSED } from '../../src/cli/io.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { GIT_TEST_ENV } from '../git/helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/tsx/dist/loader.mjs');
const MAIN = resolve(ROOT, 'src/cli/main.ts');
const TOKEN = 'ghp_ClosedStdoutTestToken0123456789abcdef';
const REPO = 'octo/closed-stdout';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  em.state.createRepo(REPO);
  const files: Record<string, string | null> = { 'README.md': null };
  // ~3,000 documents of ~250 bytes: far more than a pipe holds, so the export is still writing when the
  // reader goes away after its first chunk.
  const pad = 'x'.repeat(200);
  for (let i = 0; i < 3_000; i++) {
    files[`github/repo/o/r${i}.json`] =
      `${JSON.stringify({ data: { i, pad }, id: `o/r${i}`, namespace: 'github', type: 'repo' })}\n`;
  }
  em.state.commitFiles(REPO, { branch: 'refs/docdb/documents', files });
});
afterAll(async () => {
  await em?.stop();
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  read: number;
}

/** Run the CLI; `close` decides when this side closes the child's stdout (`'now'` or after `bytes`). */
function runClosing(args: string[], close: 'now' | { bytes: number }, env: NodeJS.ProcessEnv): Promise<Ended> {
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX, MAIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...GIT_TEST_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let read = 0;
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  if (close === 'now') child.stdout!.destroy();
  else {
    child.stdout!.on('data', (c: Buffer) => {
      read += c.length;
      if (read >= close.bytes) child.stdout!.destroy();
    });
  }
  return new Promise((done) => child.on('close', (code, signal) => done({ code, signal, stderr, read })));
}

/** No error, no stack trace, exit 141; `progress`: the stderr lines the command prints anyway. */
function expectQuiet(r: Ended, progress?: RegExp): void {
  expect(r.stderr).not.toMatch(/EPIPE|Unhandled|Error|\n\s+at /);
  expect(r.stderr.split('\n').filter((l) => l !== '' && !progress?.test(l))).toEqual([]);
  expect([r.code, r.signal]).toEqual([EXIT_OUTPUT_CLOSED, null]);
}

const exportArgs = ['doc', 'export', '--repo', REPO, '--api-url', '', '--token-env', 'T'];
const withUrl = (args: string[]) => args.map((a, i) => (args[i - 1] === '--api-url' ? em.url : a));

describe('docdb with its stdout closed by the reader', () => {
  it('doc export | head: the reader leaves after the first chunk; docdb stops quietly with 141', async () => {
    const r = await runClosing(withUrl(exportArgs), { bytes: 600 }, { T: TOKEN });
    expect(r.read).toBeGreaterThanOrEqual(600);
    expectQuiet(r);
  });

  it('doc export with stdout closed before it writes anything', async () => {
    expectQuiet(await runClosing(withUrl(exportArgs), 'now', { T: TOKEN }));
  });

  it('project --json | head -c 600: the one JSON line meets a closed pipe; no stack trace, 141', async () => {
    const args = [
      'project',
      '--spec',
      'examples/docdb.yml',
      '--repo',
      'octo-org/widgets',
      '--section',
      'epipe',
      '--json',
    ];
    const r = await runClosing(args, 'now', { GITHUB_TOKEN: 'ghp_demo_write', GITHUB_API_URL: em.url });
    expectQuiet(r, /^(\[[a-z-]+\] |committed [0-9a-f]{40}: )/);
    // the projection itself ran to the end: the section was written before the output was refused
    expect(em.requests.some((x) => x.method === 'PATCH' || x.method === 'POST')).toBe(true);
  });
});
