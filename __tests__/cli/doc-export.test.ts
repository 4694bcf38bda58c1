/**
 * `docdb doc export` (issue 20 §3): JSON Lines on stdout or in --out FILE, one file per document under
 * --dir DIR, filters, clear errors for bad targets, nothing half-written on failure, the token nowhere in
 * the output; on the GitHub API the section is read through its archive (a handful of requests).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliExportTestToken0123456789abcdefAB';
const REF = 'refs/docdb/documents';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-export-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

/** A repository whose section holds `count` documents of github/repo plus 2 of other/note. */
function section(count: number): string[] {
  const repo = `octo/export-${++n}`;
  em.state.createRepo(repo);
  const files: Record<string, string | null> = { 'README.md': null };
  const doc = (namespace: string, type: string, id: string, data: unknown) =>
    `${JSON.stringify({ data, id, namespace, type }, null, 2)}\n`;
  for (let i = 0; i < count; i++) files[`github/repo/o/r${i}.json`] = doc('github', 'repo', `o/r${i}`, { i });
  files['other/note/a.json'] = doc('other', 'note', 'a', 'A');
  files['other/note/b.json'] = doc('other', 'note', 'b', 'B');
  files['_docdb/state/x.json'] = '{}';
  em.state.commitFiles(repo, { branch: REF, files });
  return ['--repo', repo, '--api-url', em.url, '--token-env', 'T'];
}
const env = { T: TOKEN };

describe('docdb doc export', () => {
  it('writes JSON Lines on stdout, one envelope per document, documents only', async () => {
    const flags = section(3);
    const r = await runCli(['doc', 'export', ...flags], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => `${l.namespace}/${l.type}/${l.id}`)).toEqual([
      'github/repo/o/r0',
      'github/repo/o/r1',
      'github/repo/o/r2',
      'other/note/a',
      'other/note/b',
    ]);
    expect(lines[0]).toMatchObject({ data: { i: 0 }, version: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(r.stderr).toBe(''); // not a terminal: no progress
  });

  it('--out FILE with --namespace/--type, through the archive in a handful of requests; --json prints a summary', async () => {
    const flags = section(200);
    const out = join(tmp.dir, `e-${n}.jsonl`);
    const from = em.requests.length;
    const r = await runCli(
      ['doc', 'export', ...flags, '--namespace', 'github', '--type', 'repo', '--out', out, '--json'],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ documents: 200, path: out });
    const text = readFileSync(out, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(200);
    expect(text).not.toContain(TOKEN);
    const used = em.requests.slice(from).map((x) => x.operation);
    expect(used).toContain('codeload/legacy.tar.gz');
    expect(used.length).toBeLessThanOrEqual(6);
    expect(em.requests.slice(from).every((x) => x.sentAuthorization !== true)).toBe(true);
    expect(readdirSync(tmp.dir).some((f) => f.includes('.tmp-'))).toBe(false);
  });

  it('a section that does not exist is NotFound (exit 3) naming --section, and nothing is written', async () => {
    const flags = section(1);
    const out = join(tmp.dir, `missing-${n}.jsonl`);
    for (const argv of [
      ['doc', 'export', ...flags, '--section', 'nope'],
      ['doc', 'export', ...flags, '--section', 'nope', '--out', out],
    ]) {
      const r = await runCli(argv, { env });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/section refs\/docdb\/nope does not exist .*Check --section/);
    }
    expect(existsSync(out)).toBe(false);
  });

  it('--dir DIR: one file per document at its key; a non-empty DIR needs --force', async () => {
    const flags = section(2);
    const dir = join(tmp.dir, `d-${n}`);
    const r = await runCli(['doc', 'export', ...flags, '--dir', dir, '--quiet'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'other/note/a.json'), 'utf8'))).toMatchObject({ id: 'a', data: 'A' });
    expect(existsSync(join(dir, '_docdb'))).toBe(false);
    const again = await runCli(['doc', 'export', ...flags, '--dir', dir], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--dir|not empty/);
    const forced = await runCli(['doc', 'export', ...flags, '--dir', dir, '--force'], { env });
    expect(forced.code).toBe(0);
  });

  it('progress on stderr only on a terminal and not with --quiet; stdout stays JSON Lines', async () => {
    const flags = section(1_200); // 1,202 documents: one progress line at 1,000, then the total
    const tty = await runCli(['doc', 'export', ...flags], { env, stderrIsTTY: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toBe('\rexported 1000 documents…\rexported 1202 documents\n');
    const lines = tty.stdout.trim().split('\n');
    expect(lines).toHaveLength(1_202);
    expect(lines.every((l) => typeof JSON.parse(l).id === 'string')).toBe(true);
    const quiet = await runCli(['doc', 'export', ...flags, '--quiet'], { env, stderrIsTTY: true });
    expect([quiet.code, quiet.stderr, quiet.stdout]).toEqual([0, '', tty.stdout]);
    const piped = await runCli(['doc', 'export', ...flags], { env, stderrIsTTY: false });
    expect([piped.code, piped.stderr, piped.stdout]).toEqual([0, '', tty.stdout]);
  });

  describe('a failure mid-stream (a document after the first page of 1,000 is corrupt)', () => {
    /** 1,000 documents fit the first page; the corrupt one is read with the second, after 1,000 lines. */
    function brokenSection(): string[] {
      const flags = section(1_100);
      em.state.commitFiles(flags[1] as string, { branch: REF, files: { 'other/note/c.json': '{ not json' } });
      return flags;
    }
    const leftovers = (dir: string) => readdirSync(dir).filter((f) => f.includes('.tmp-'));

    it('stdout: the lines of the first page were produced, then the export fails', async () => {
      const r = await runCli(['doc', 'export', ...brokenSection()], { env });
      expect(r.code).not.toBe(0);
      expect(r.stdout.trim().split('\n')).toHaveLength(1_000);
      expect(r.stderr).toMatch(/InvalidDocument/);
    });

    it('--out FILE: the target keeps its previous content (or stays absent); no temporary file is left', async () => {
      const flags = brokenSection();
      const dir = join(tmp.dir, `out-fail-${n}`);
      mkdirSync(dir);
      const absent = join(dir, 'new.jsonl');
      expect((await runCli(['doc', 'export', ...flags, '--out', absent], { env })).code).not.toBe(0);
      expect(existsSync(absent)).toBe(false);
      const kept = join(dir, 'kept.jsonl');
      writeFileSync(kept, 'previous\n');
      expect((await runCli(['doc', 'export', ...flags, '--out', kept], { env })).code).not.toBe(0);
      expect(readFileSync(kept, 'utf8')).toBe('previous\n');
      expect(readdirSync(dir)).toEqual(['kept.jsonl']);
    });

    it('--dir DIR: the directory is not created, or with --force keeps its previous files; no temporary directory', async () => {
      const flags = brokenSection();
      const fresh = join(tmp.dir, `dir-fail-${n}`);
      expect((await runCli(['doc', 'export', ...flags, '--dir', fresh], { env })).code).not.toBe(0);
      expect(existsSync(fresh)).toBe(false);
      const old = join(tmp.dir, `dir-kept-${n}`);
      mkdirSync(old);
      writeFileSync(join(old, 'previous.json'), '{}');
      expect((await runCli(['doc', 'export', ...flags, '--dir', old, '--force'], { env })).code).not.toBe(0);
      expect(readdirSync(old)).toEqual(['previous.json']);
      expect(leftovers(tmp.dir)).toEqual([]);
    });
  });

  it('bad flags are usage errors; a failed export leaves no file behind', async () => {
    const flags = section(1);
    expect((await runCli(['doc', 'export', ...flags, '--type', 'repo'], { env })).code).toBe(2);
    expect((await runCli(['doc', 'export', ...flags, '--out', 'a', '--dir', 'b'], { env })).code).toBe(2);
    expect((await runCli(['doc', 'export', ...flags, '--json'], { env })).code).toBe(2);
    const file = join(tmp.dir, 'blocked');
    writeFileSync(file, 'x');
    const dir = join(tmp.dir, `fail-${n}`);
    mkdirSync(dir);
    // The listing reads the archive first (values follow), the tree API when it cannot: fail both.
    em.inject({ kind: 'status', status: 500, path: /\/git\/trees\/|\/tarball\//, times: 20 });
    const out = join(dir, 'out.jsonl');
    const failed = await runCli(['doc', 'export', ...flags, '--out', out], { env });
    em.clearFaults();
    expect(failed.code).not.toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    expect(failed.stderr).not.toContain(TOKEN);
  });
});
