/**
 * `docdb doc export --format sqlite --out FILE [--history]` (issue 41): the file, the summary, the in-place
 * re-export, and the usage errors (exit 2, naming the flag) — the token never in the output or the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { sql } from '../export/sqlite-fixture.js';
import { tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliSqliteExportToken0123456789abcdef';
const REF = 'refs/docdb/documents';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-sqlite-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

const doc = (id: string, data: unknown) =>
  `${JSON.stringify({ data, id, namespace: 'github', type: 'repo' }, null, 2)}\n`;

/** A repository whose section holds 3 github/repo documents; returns the store flags. */
function section(): { repo: string; flags: string[] } {
  const repo = `octo/sqlite-${++n}`;
  em.state.createRepo(repo);
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < 3; i++) files[`github/repo/o/r${i}.json`] = doc(`o/r${i}`, { stars: i });
  em.state.commitFiles(repo, { branch: REF, files });
  return { repo, flags: ['--repo', repo, '--api-url', em.url, '--token-env', 'T'] };
}
const env = { T: TOKEN };

describe('docdb doc export --format sqlite', () => {
  it('writes the database, prints a summary; run again: up to date, then only the change', async () => {
    const { repo, flags } = section();
    const out = join(tmp.dir, `s-${n}.db`);
    const r = await runCli(['doc', 'export', ...flags, '--format', 'sqlite', '--out', out, '--history', '--json'], {
      env,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ mode: 'created', rows: 3, path: out });
    expect(sql(out, 'SELECT id, stars FROM github_repo ORDER BY id')).toEqual([
      { id: 'o/r0', stars: 0 },
      { id: 'o/r1', stars: 1 },
      { id: 'o/r2', stars: 2 },
    ]);
    expect(sql(out, 'SELECT section, ref FROM _docdb')).toEqual([{ section: `${repo} ${REF}`, ref: REF }]);
    expect(readFileSync(out).includes(Buffer.from(TOKEN))).toBe(false);

    const again = await runCli(['doc', 'export', ...flags, '--format', 'sqlite', '--out', out, '--history'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/is up to date \([0-9a-f]{7}\)/);

    em.state.commitFiles(repo, { branch: REF, files: { 'github/repo/o/r1.json': doc('o/r1', { stars: 10 }) } });
    const changed = await runCli(['doc', 'export', ...flags, '--format', 'sqlite', '--out', out, '--history'], {
      env,
    });
    expect(changed.code).toBe(0);
    expect(changed.stdout).toMatch(/^1 version row\(s\) updated → /);
    expect(sql(out, `SELECT stars, _changed FROM github_repo_versions WHERE id = 'o/r1' ORDER BY _id`)).toEqual([
      { stars: 1, _changed: '["stars"]' },
      { stars: 10, _changed: '["stars"]' },
    ]);
  });

  it.each([
    [['--format', 'sqlite'], '--out', /--format sqlite writes a database file: give --out FILE/],
    [['--format', 'sqlite', '--dir', 'd'], '--dir', /--dir does not apply to --format sqlite/],
    [['--format', 'sqlite', '--out', 'x.db', '--fields', 'id'], '--fields', /--fields does not apply/],
    [['--format', 'sqlite', '--out', 'x.db', '--type', 'repo'], '--type', /--type needs --namespace/],
    [['--history', '--out', 'x.jsonl'], '--history', /--history applies to --format sqlite only/],
    [['--format', 'xlsx'], '--format', /use jsonl, json, csv, sqlite, parquet/],
  ])('usage error %j: exit 2 naming %s', async (args, flag, message) => {
    const { flags } = section();
    const r = await runCli(['doc', 'export', ...flags, ...args, '--json'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.json()).toMatchObject({ error: { code: 'Usage', flag } });
  });

  it('a file that is not a docdb export: exit 2 naming --out, the file untouched', async () => {
    const { flags } = section();
    const out = join(tmp.dir, 'notes.db');
    writeFileSync(out, 'precious');
    const r = await runCli(['doc', 'export', ...flags, '--format', 'sqlite', '--out', out], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/exists and is not a docdb SQLite export \(no _docdb table\)/);
    expect(readFileSync(out, 'utf8')).toBe('precious');
  });

  it('--help describes the format and --history', async () => {
    const r = await runCli(['doc', 'export', '--help']);
    expect(r.stdout).toMatch(/--format sqlite --out FILE/);
    expect(r.stdout).toMatch(/--history adds a commits table/);
    expect(r.stdout).toMatch(/--history\s+with --format sqlite/);
  });
});
