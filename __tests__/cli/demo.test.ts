/**
 * `docdb demo`: in-process (the dist path end to end is covered by dist-e2e.test.ts) and with the built
 * dist/index.js where what the user sees depends on it: the user's own `--spec` relative to where they
 * run the command (issue 32 item 1), and plain output in a terminal but the workflow-command form under
 * GitHub Actions (item 4).
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removedDocuments } from '../../src/cli/commands/demo.js';
import { DocumentStore } from '../../src/document/index.js';
import { DEMO_SEED, startEmulator } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/fetch.js';
import { tempDir } from '../temp-dir.js';
import { runCli } from './run-cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** What a terminal reader should never see: HTML, Markdown tables, workflow commands, percent-encoding. */
const TERMINAL_NOISE = /<code>|<\/?details>|<summary>|\|---|::[a-z-]+(?: [^:]*)?::|%3A/;

/** A user's project elsewhere: specs/good.yml, an unmodified copy of the example spec (and its reducer module). */
function userProject(): string {
  const dir = tempDir('docdb-demo-user-');
  mkdirSync(join(dir, 'specs'));
  cpSync(join(ROOT, 'examples', 'docdb.yml'), join(dir, 'specs', 'good.yml'));
  cpSync(join(ROOT, 'examples', 'reducers'), join(dir, 'specs', 'reducers'), { recursive: true });
  return dir;
}

/** A spec whose source fails at run time (a repository the emulator does not have): an annotated error. */
function failingProject(): string {
  const dir = tempDir('docdb-demo-fail-');
  writeFileSync(
    join(dir, 'bad.yml'),
    'version: 1\nprojections:\n  repos:\n    source: { type: repository, api: rest, repositories: [octo-org/nope] }\n',
  );
  return dir;
}

describe('docdb demo', () => {
  it('runs the Action on the demo seed, re-runs without a commit and reads a document back', async () => {
    const r = await runCli(['demo', '--in-process']);
    const text = r.stdout;
    expect(r.code, text + r.stderr).toBe(0);
    expect(text).toMatch(/running the Action in-process/);
    expect(text).toMatch(/^ {4}docdb project: refs\/docdb\/documents in octo-org\/widgets$/m);
    expect(text).toMatch(/^ {6}repos +repository +3 added, 0 modified, 0 removed, 0 unchanged$/m);
    expect(text).toMatch(/^ {6}release-notes +releases +3 added, 0 modified, 0 removed, 0 unchanged, 1 skipped$/m); // the custom reducer module
    expect(text).toMatch(/changed = true/);
    expect(text).toMatch(/second run with unchanged sources: changed=false.* of which 0 writes — no commit/);
    expect(text).toMatch(/"fullName": "octo-org\/widgets"/);
    expect(text).toMatch(/\(2 requests: ref \+ one contents read\)/);
    expect(text).toMatch(/docdb doc get github\/repo\/octo-org\/widgets {3}\(2 requests/);
    expect(text).toMatch(/outputs.document = github\/repo\/octo-org\/widgets at [0-9a-f]{7}$/m);
    expect(text).not.toMatch(TERMINAL_NOISE);
  });

  it('with --json, progress goes to stderr and stdout is one JSON summary', async () => {
    const r = await runCli(['demo', '--in-process', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/second run with unchanged sources/);
    expect(r.json()).toMatchObject({
      ok: true,
      outputs: { changed: 'true' },
      rerun: { changed: false, writes: 0 },
      read: { name: 'github/repo/octo-org/widgets', requests: 2 },
      document: { namespace: 'github', type: 'repo', id: 'octo-org/widgets' },
    });
  });

  it.each([
    ['dist/index.js', []],
    ['--in-process', ['--in-process']],
  ])("--spec is the user's file, relative to where docdb runs (%s)", async (_, extra) => {
    const cwd = userProject();
    const r = await runCli(['demo', '--spec', 'specs/good.yml', ...extra], { cwd });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/changed = true/);
    expect(r.stdout).toMatch(/second run with unchanged sources: changed=false/);
    expect(r.stdout).not.toMatch(TERMINAL_NOISE);
    // An absolute path inside the working directory is the same file.
    const abs = await runCli(['demo', '--spec', join(cwd, 'specs', 'good.yml'), '--json', ...extra], { cwd });
    expect(abs.code, abs.stderr).toBe(0);
  });

  it('a --spec that is not there is named in the CLI’s words before anything runs', async () => {
    const cwd = userProject();
    const r = await runCli(['demo', '--spec', 'specs/nope.yml'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/projection spec specs\/nope\.yml not found: .* or set --spec to its path/);
    expect(r.stdout).toBe(''); // no emulator started, no Action run
    const outside = await runCli(['demo', '--spec', join(ROOT, 'examples', 'docdb.yml')], { cwd });
    expect(outside.stderr).toMatch(/outside the workspace .*docdb-demo-user-.*; --spec must name a file inside/);
  });

  it('in a terminal the step log has no workflow commands: an annotation reads as "error: … (file:line)"', async () => {
    const cwd = failingProject();
    const r = await runCli(['demo', '--spec', 'bad.yml'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^ {4}error: .*octo-org\/nope.* \(bad\.yml:4\)$/m);
    expect(r.stdout).not.toMatch(TERMINAL_NOISE);
  });

  it('under GitHub Actions (GITHUB_ACTIONS=true) the workflow-command form and the Markdown summary stay', async () => {
    const failing = await runCli(['demo', '--spec', 'bad.yml'], {
      cwd: failingProject(),
      env: { GITHUB_ACTIONS: 'true' },
    });
    expect(failing.stdout).toMatch(/::error title=docdb%3A [^,]+,file=bad\.yml,line=4::/);
    expect(failing.stdout).toMatch(/::debug::/);
    const ok = await runCli(['demo'], { env: { GITHUB_ACTIONS: 'true' } });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/job summary \(GITHUB_STEP_SUMMARY\)/);
    expect(ok.stdout).toMatch(/<details><summary>\d+ changed document key\(s\)<\/summary>/);
  });
});

/** A user's own spec (issue 37 item 8): it writes mine/release/…, not the built-in demo's github/repo/octo-org/widgets. */
function ownSpecProject(): string {
  const dir = tempDir('docdb-demo-own-');
  mkdirSync(join(dir, 'specs'));
  writeFileSync(
    join(dir, 'specs', 'mine.yml'),
    'version: 1\nprojections:\n  gadget-releases:\n    source: { type: releases, repositories: [octo-org/gadgets] }\n    identity: { namespace: mine, type: release, id: "{repo}@{tag}" }\n',
  );
  return dir;
}

/** The numbers a text run printed, to hold against its --json. */
function textNumbers(text: string) {
  return {
    rerunRequests: Number(
      /second run with unchanged sources: .*, (\d+) requests of which (\d+) writes/.exec(text)?.[1],
    ),
    rerunWrites: Number(/second run with unchanged sources: .* of which (\d+) writes/.exec(text)?.[1]),
    readName: /▶ docdb doc get (\S+) {3}\((\d+) requests/.exec(text)?.[1],
    readRequests: Number(/▶ docdb doc get \S+ {3}\((\d+) requests/.exec(text)?.[1]),
  };
}

describe("docdb demo --spec with the user's own spec (issue 37 item 8)", () => {
  it.each([
    ['dist/index.js', []],
    ['--in-process', ['--in-process']],
  ])('reads back a document the run wrote, exits 0, and text and --json agree (%s)', async (_, extra) => {
    const cwd = ownSpecProject();
    const r = await runCli(['demo', '--spec', 'specs/mine.yml', '--json', ...extra], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const result = r.json() as {
      ok: boolean;
      reason?: string;
      rerun: { requests: number; writes: number };
      read: { name: string; requests: number };
      document: { namespace: string; type: string; id: string } | null;
    };
    expect(result).toMatchObject({ ok: true, read: { name: 'mine/release/octo-org/gadgets@v0.1.0' } });
    expect(result.reason).toBeUndefined();
    expect(result.document).toMatchObject({ namespace: 'mine', type: 'release', id: 'octo-org/gadgets@v0.1.0' });
    // --json's progress (stderr) is the text run's stdout: the same numbers in both.
    const said = textNumbers(r.stderr);
    expect(said).toEqual({
      rerunRequests: result.rerun.requests,
      rerunWrites: result.rerun.writes,
      readName: result.read.name,
      readRequests: result.read.requests,
    });
    expect(r.stderr).toMatch(/outputs\.document = mine\/release\/octo-org\/gadgets@v0\.1\.0 at [0-9a-f]{7}/);
    expect(r.stderr).toMatch(/✓ demo complete/);
    expect(r.stderr).not.toMatch(/github\/repo\/octo-org\/widgets/);
  });

  it('a run that fails: ok false with the reason, in the text and in --json', async () => {
    const cwd = failingProject();
    const r = await runCli(['demo', '--spec', 'bad.yml', '--json'], { cwd });
    expect(r.code).toBe(1);
    const result = r.json() as { ok: boolean; reason: string };
    expect(result.ok).toBe(false);
    expect(result.reason).toMatch(/^the Action failed: error: .*octo-org\/nope/);
    expect(r.stderr).toContain(`✗ demo failed: ${result.reason}`);
  });
});

describe('demo through dist/index.js: the removed documents by name (issue 32 item 8)', () => {
  it("reads the names the Action's outputs only count from the section's changes", async () => {
    const em = await startEmulator({ seed: DEMO_SEED });
    try {
      const docs = new DocumentStore(
        new RemoteApiRefStore({
          transport: fetchTransport(),
          apiUrl: em.url,
          owner: 'octo-org',
          repo: 'widgets',
          token: 'ghp_demo_write',
        }),
      );
      await docs.put({ namespace: 'github', type: 'repo', id: 'octo-org/api', data: 1 });
      const prev = (await docs.put({ namespace: 'github', type: 'repo', id: 'octo-org/keep', data: 1 })).version!;
      const version = (await docs.delete({ namespace: 'github', doc_type: 'repo', id: 'octo-org/api' })).version!;
      const outputs = { 'previous-version': prev, version, deleted: '1' };
      expect(await removedDocuments(em.url, outputs)).toEqual(['github/repo/octo-org/api']);
      em.clearLog();
      expect(await removedDocuments(em.url, { ...outputs, deleted: '0' })).toEqual([]);
      expect(em.requests).toHaveLength(0); // nothing removed: no request
    } finally {
      await em.stop();
    }
  });
});
