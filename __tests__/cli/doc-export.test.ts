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

  it('bad flags are usage errors; a failed export leaves no file behind', async () => {
    const flags = section(1);
    expect((await runCli(['doc', 'export', ...flags, '--type', 'repo'], { env })).code).toBe(2);
    expect((await runCli(['doc', 'export', ...flags, '--out', 'a', '--dir', 'b'], { env })).code).toBe(2);
    expect((await runCli(['doc', 'export', ...flags, '--json'], { env })).code).toBe(2);
    const file = join(tmp.dir, 'blocked');
    writeFileSync(file, 'x');
    const dir = join(tmp.dir, `fail-${n}`);
    mkdirSync(dir);
    em.inject({ kind: 'status', status: 500, path: /\/git\/trees\//, times: 20 });
    const out = join(dir, 'out.jsonl');
    const failed = await runCli(['doc', 'export', ...flags, '--out', out], { env });
    em.clearFaults();
    expect(failed.code).not.toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    expect(failed.stderr).not.toContain(TOKEN);
  });
});
