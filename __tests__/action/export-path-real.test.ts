/**
 * The Action from source (src/action/main.ts through tsx, run as a runner runs it: INPUT_* variables,
 * GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) — the behaviour dist/ gets when it is rebuilt:
 * - `export-path` through a symbolic link that leads out of the workspace is refused naming the input,
 *   nothing written (issue 27 §4); through a link inside it, the `path` output names the real file;
 * - `export-format: files` never removes a file written into the target during the export (§5);
 * - the log holds no terminal control sequence and no workflow command that came from outside (§7): a
 *   hostile API error message, an `export-path` with a newline and `::set-output`.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLikeRunner } from '../../src/action/local-runner.js';
import { HOSTILE, RAW_CONTROL } from '../core/hostile-text.js';
import { type ExportEmulator, startExportEmulator } from '../export/export-emulator.js';
import { runnerDefaults, workspace } from './run-dist.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'src/action/main.ts');
const TSX = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
const TOKEN = 'ghp_ActionExportPathToken0123456789abcdef';
const REPO = 'octo/export-path';
let fx: ExportEmulator;

beforeAll(async () => {
  fx = await startExportEmulator(TOKEN, REPO);
});
afterAll(async () => {
  await fx?.em.stop();
});

/** Run the Action's source in `cwd` (the workspace) with `inputs` over action.yml's defaults. */
function runSource(cwd: string, inputs: Record<string, string>) {
  const env = { GITHUB_WORKSPACE: cwd, GITHUB_SERVER_URL: 'https://github.example', NODE_OPTIONS: `--import ${TSX}` };
  const given = { token: TOKEN, 'api-url': fx.em.url, repository: REPO, mode: 'export', ...inputs };
  return runLikeRunner({ entry: MAIN, inputs: { ...runnerDefaults(env), ...given }, cwd, env });
}

/** The log has no raw control character and no workflow command docdb did not issue itself. */
function expectInertLog(log: string): void {
  expect(log).not.toMatch(RAW_CONTROL);
  const commands = log.split('\n').filter((l) => /^\s*(::|##\[)/.test(l));
  expect(commands.filter((l) => !/^::(add-mask|debug|error|warning|group|endgroup)[ :]/.test(l))).toEqual([]);
}

describe('mode: export, export-path through symbolic links', () => {
  it.each([
    ['jsonl', 'site/docs.jsonl'],
    ['files', 'site/files'],
  ])(
    '%s: a link leading out of the workspace is refused naming export-path; nothing is written',
    async (format, path) => {
      const cwd = workspace({});
      const outside = workspace({ 'keep.txt': 'x' });
      symlinkSync(outside, join(cwd, 'site'));
      const r = await runSource(cwd, { 'export-path': path, 'export-format': format });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /input "export-path": ".*" is not a file inside the workspace .*: through a symbolic link it leads to /,
      );
      expect(readdirSync(outside)).toEqual(['keep.txt']);
      expect(r.outputs.path).toBeUndefined();
    },
  );

  it('the file itself a link out of the workspace: refused, its target untouched; a dangling link is replaced, never followed', async () => {
    const cwd = workspace({});
    const outside = workspace({ 'keep.txt': 'x' });
    symlinkSync(join(outside, 'keep.txt'), join(cwd, 'docs.jsonl'));
    const refused = await runSource(cwd, { 'export-path': 'docs.jsonl' });
    expect(refused.code, refused.stdout).toBe(1);
    expect(refused.stdout).toMatch(
      /input "export-path": ".*" is not a file inside the workspace .*: through a symbolic link/,
    );
    expect(refused.outputs.path).toBeUndefined();
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('x');
    // A link to a file that does not exist yet: the export's rename replaces the link itself, in the workspace.
    symlinkSync(join(outside, 'missing.jsonl'), join(cwd, 'dangling.jsonl'));
    const replaced = await runSource(cwd, { 'export-path': 'dangling.jsonl' });
    expect(replaced.code, replaced.stdout).toBe(0);
    expect(replaced.outputs.path).toBe(join(cwd, 'dangling.jsonl'));
    expect(lstatSync(join(cwd, 'dangling.jsonl')).isSymbolicLink()).toBe(false);
    expect(readdirSync(outside)).toEqual(['keep.txt']);
  });

  it('a link inside the workspace: written where it leads, and the path output names that real file', async () => {
    const cwd = workspace({ 'real/.keep': '' });
    symlinkSync(join(cwd, 'real'), join(cwd, 'site'));
    const r = await runSource(cwd, { 'export-path': 'site/docs.jsonl' });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.path).toBe(join(cwd, 'real/docs.jsonl'));
    expect(readFileSync(join(cwd, 'real/docs.jsonl'), 'utf8').trim().split('\n')).toHaveLength(200);
    expect(r.summary).toContain('→ `real/docs.jsonl`');
  });
});

describe('mode: export, export-format files, when the target changes during the export', () => {
  it('a file written into the target meanwhile survives; the step fails naming export-path', async () => {
    const cwd = workspace({ 'site/.keep': '' });
    const target = join(cwd, 'site/docs');
    mkdirSync(target);
    fx.onArchive = () => writeFileSync(join(target, 'mine.txt'), 'written meanwhile');
    const r = await runSource(cwd, { 'export-path': 'site/docs', 'export-format': 'files' });
    fx.onArchive = undefined;
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::input "export-path": .*docs changed during the export \(mine\.txt\)/);
    expect(readdirSync(target)).toEqual(['mine.txt']);
    expect(readdirSync(join(cwd, 'site')).sort()).toEqual(['.keep', 'docs']);
  });
});

describe('the log holds nothing a runner or a terminal would obey', () => {
  it('a hostile API error message in the failure', async () => {
    const cwd = workspace({});
    fx.em.inject({
      kind: 'status',
      status: 403,
      body: { message: Object.values(HOSTILE).join('\n') },
      path: /\/git\/ref\//,
      times: 5,
    });
    const r = await runSource(cwd, { 'export-path': 'out.jsonl' });
    fx.em.clearFaults();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('\\u001B]52;c;');
    expectInertLog(r.stdout);
  });

  it('an export-path with a newline, a workflow command and an escape sequence, printed in a log line', async () => {
    const cwd = workspace({});
    const path = `out/a\n::set-output name=version::0000\n${HOSTILE.title}.jsonl`;
    const r = await runSource(cwd, { 'export-path': path });
    expect(r.code, r.stdout).toBe(0);
    expect(existsSync(join(cwd, path))).toBe(true);
    expect(r.stdout).toContain('\\u003A:set-output name=version::0000');
    expectInertLog(r.stdout);
  });
});
