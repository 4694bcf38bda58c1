/**
 * `docdb doc export --format parquet --out DIR` (issue 41): the files (read by DuckDB), the summary, the re-export,
 * and the usage errors (exit 2, naming the flag) — the token never in the output or the files.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { duck, lit } from '../export/parquet-fixture.js';
import { tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliParquetExportToken0123456789abcdef';
const REF = 'refs/docdb/documents';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-parquet-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

const doc = (id: string, data: unknown) =>
  `${JSON.stringify({ data, id, namespace: 'github', type: 'repo' }, null, 2)}\n`;

/** A repository whose section holds 3 github/repo documents; returns the store flags. */
function section(): { repo: string; flags: string[] } {
  const repo = `octo/parquet-${++n}`;
  em.state.createRepo(repo);
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < 3; i++) files[`github/repo/o/r${i}.json`] = doc(`o/r${i}`, { stars: i });
  em.state.commitFiles(repo, { branch: REF, files });
  return { repo, flags: ['--repo', repo, '--api-url', em.url, '--token-env', 'T'] };
}
const env = { T: TOKEN };

describe('docdb doc export --format parquet', () => {
  it('writes the directory, prints a summary; run again: up to date, then only the change', async () => {
    const { repo, flags } = section();
    const out = join(tmp.dir, `p-${n}`);
    const r = await runCli(['doc', 'export', ...flags, '--format', 'parquet', '--out', out, '--json'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      mode: 'created',
      rows: 3,
      path: out,
      files: ['github_repo.parquet'],
      written: ['github_repo.parquet'],
    });
    const file = join(out, 'github_repo.parquet');
    expect(await duck(`SELECT id, stars FROM ${lit(file)} ORDER BY id`)).toEqual([
      { id: 'o/r0', stars: '0' },
      { id: 'o/r1', stars: '1' },
      { id: 'o/r2', stars: '2' },
    ]);
    expect(JSON.parse(readFileSync(join(out, '_docdb.json'), 'utf8'))).toMatchObject({
      section: `${repo} ${REF}`,
      ref: REF,
    });
    for (const f of readdirSync(out)) expect(readFileSync(join(out, f)).includes(Buffer.from(TOKEN))).toBe(false);

    const again = await runCli(['doc', 'export', ...flags, '--format', 'parquet', '--out', out], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/ is up to date \([0-9a-f]{7}\)\n$/);
    em.state.commitFiles(repo, { branch: REF, files: { 'github/repo/o/r1.json': doc('o/r1', { stars: 10 }) } });
    const changed = await runCli(['doc', 'export', ...flags, '--format', 'parquet', '--out', out], { env });
    expect(changed.code).toBe(0);
    expect(changed.stdout).toMatch(/^1 row\(s\) updated in 1 file\(s\) → /);
    expect(await duck(`SELECT stars FROM ${lit(file)} WHERE id = 'o/r1'`)).toEqual([{ stars: '10' }]);
  });

  it.each([
    [['--format', 'parquet'], '--out', /--format parquet writes a directory: give --out DIR/],
    [['--format', 'parquet', '--dir', 'd'], '--dir', /--dir does not apply to --format parquet/],
    [['--format', 'parquet', '--out', 'd', '--fields', 'id'], '--fields', /--fields does not apply/],
    [['--format', 'parquet', '--out', 'd', '--force'], '--force', /--force does not apply/],
    [['--format', 'parquet', '--out', 'd', '--history'], '--history', /--history does not apply/],
    [['--format', 'parquet', '--out', 'd', '--type', 'repo'], '--type', /--type needs --namespace/],
  ])('usage error %j: exit 2 naming %s', async (args, flag, message) => {
    const { flags } = section();
    const r = await runCli(['doc', 'export', ...flags, ...args, '--json'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.json()).toMatchObject({ error: { code: 'Usage', flag } });
  });

  it('a directory that is not a docdb Parquet export: exit 2 naming --out, left untouched', async () => {
    const { flags } = section();
    const out = join(tmp.dir, 'mine');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'precious');
    const r = await runCli(['doc', 'export', ...flags, '--format', 'parquet', '--out', out, '--json'], { env });
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ error: { code: 'Usage', flag: '--out' } });
    expect(r.stderr).toMatch(/holds no Parquet export of docdb/);
    expect(readdirSync(out)).toEqual(['notes.txt']);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('precious');
  });
});
