/**
 * `exportParquet` (issue 41, "Parquet") against the GitHub API emulator, every file read back by DuckDB: the
 * files and their typed columns, the type mapping, row groups, and the `_docdb.json` the directory carries.
 * Re-exports and refusals: parquet-reexport.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { tempDir } from '../git/helpers.js';
import { emulator, freshRepo } from '../remote-api/helpers.js';
import { columnTypes, duck, lit, rowsById, runParquet } from './parquet-fixture.js';
import { blob, commitDocs } from './sqlite-fixture.js';

let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;
beforeAll(async () => {
  em = await emulator();
  tmp = tempDir('docdb-parquet-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});
const outDir = () => join(tmp.dir, `export-${++n}`);

/** A section with `count` github/repo documents and two other/note ones; returns the repository name. */
function section(count: number): string {
  const repo = freshRepo(em);
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < count; i++) {
    files[`github/repo/o/r${i}.json`] = blob('github', 'repo', `o/r${i}`, {
      stars: i,
      owner: { login: `u${i % 3}` },
      archived: i % 2 === 0,
      topics: ['a', `t${i}`],
    });
  }
  files['other/note/a.json'] = blob('other', 'note', 'a', 'just text');
  files['other/note/b.json'] = blob('other', 'note', 'b', 'more text');
  commitDocs(em, repo, files, 'seed');
  return repo;
}

describe('exportParquet: the files', () => {
  it('a file per type with typed columns (as the SQLite export chooses them), data as JSON, _version; _docdb.json', async () => {
    const repo = section(5);
    const dir = outDir();
    const { result, version } = await run(repo, dir);
    expect(result).toMatchObject({ mode: 'created', rows: 7, version, path: dir });
    expect(readdirSync(dir).sort()).toEqual(['_docdb.json', 'github_repo.parquet', 'other_note.parquet']);
    const file = join(dir, 'github_repo.parquet');
    expect(await columnTypes(file)).toEqual([
      ['id', 'VARCHAR'],
      ['stars', 'BIGINT'],
      ['owner.login', 'VARCHAR'],
      ['archived', 'BOOLEAN'],
      ['topics', 'JSON'],
      ['data', 'JSON'],
      ['_version', 'VARCHAR'],
    ]);
    expect((await rowsById(file)).get('o/r3')).toEqual({
      id: 'o/r3',
      stars: '3', // BIGINT, which DuckDB's JSON rows give as text
      'owner.login': 'u0',
      archived: false,
      topics: '["a","t3"]',
      data: JSON.stringify({ stars: 3, owner: { login: 'u0' }, archived: false, topics: ['a', 't3'] }),
      _version: version,
    });
    // DuckDB's JSON functions read the data column, and a glob reads every type at once.
    expect(await duck(`SELECT data->>'$.owner.login' AS login FROM ${lit(file)} WHERE id = 'o/r4'`)).toEqual([
      { login: 'u1' },
    ]);
    expect(
      await duck(`SELECT count(*)::INT AS n FROM read_parquet(${lit(join(dir, '*.parquet'))}, union_by_name = true)`),
    ).toEqual([{ n: 7 }]);
    expect(await duck(`SELECT id, data FROM ${lit(join(dir, 'other_note.parquet'))} ORDER BY id`)).toEqual([
      { id: 'a', data: '"just text"' },
      { id: 'b', data: '"more text"' },
    ]);
    const meta = JSON.parse(readFileSync(join(dir, '_docdb.json'), 'utf8'));
    expect(meta).toMatchObject({
      kind: 'docdb-parquet-export',
      section: `octo/${repo} refs/docdb/documents`,
      ref: 'refs/docdb/documents',
      commit: version,
      namespace: null,
      type: null,
    });
    expect(meta.files[0]).toEqual({
      file: 'github_repo.parquet',
      namespace: 'github',
      type: 'repo',
      rows: 5,
      columns: [
        { name: 'id', type: 'STRING' },
        { name: 'stars', field: 'data.stars', type: 'INT64' },
        { name: 'owner.login', field: 'data.owner.login', type: 'STRING' },
        { name: 'archived', field: 'data.archived', type: 'BOOLEAN' },
        { name: 'topics', field: 'data.topics', type: 'JSON' },
        { name: 'data', type: 'JSON' },
        { name: '_version', type: 'STRING' },
      ],
    });
  });

  it('types are inferred over every row, not the sample: one late string makes a number column text', async () => {
    const repo = freshRepo(em);
    const files: Record<string, string | null> = { 'README.md': null };
    // 30 documents: the columns come from the first 20, the types from all 30.
    for (let i = 0; i < 30; i++) {
      const late = i >= 25;
      files[`t/mix/d${String(i).padStart(2, '0')}.json`] = blob('t', 'mix', `d${String(i).padStart(2, '0')}`, {
        n: late ? 'text' : i, // int, then strings: mixed → each value's JSON text
        x: late ? i + 0.5 : i, // int, then fractions: DOUBLE
        big: i === 29 ? 2 ** 60 : i, // beyond 2^53 is not an exact integer: DOUBLE
        none: null, // never a value: STRING, all NULL
        list: i % 2 ? [i] : [], // arrays (and objects below the two levels columns open): JSON
        deep: { a: { b: i } },
        flag: i % 3 === 0,
      });
    }
    commitDocs(em, repo, files);
    const dir = outDir();
    await run(repo, dir);
    const file = join(dir, 't_mix.parquet');
    expect(await columnTypes(file)).toEqual([
      ['id', 'VARCHAR'],
      ['n', 'VARCHAR'],
      ['x', 'DOUBLE'],
      ['big', 'DOUBLE'],
      ['none', 'VARCHAR'],
      ['list', 'JSON'],
      ['deep.a', 'JSON'],
      ['flag', 'BOOLEAN'],
      ['data', 'JSON'],
      ['_version', 'VARCHAR'],
    ]);
    const rows = await rowsById(file);
    expect(rows.get('d03')).toMatchObject({
      n: '3',
      x: 3,
      big: 3,
      none: null,
      list: '[3]',
      'deep.a': '{"b":3}',
      flag: true,
    });
    expect(rows.get('d26')).toMatchObject({ n: '"text"', x: 26.5 });
    expect(rows.get('d29')).toMatchObject({ big: 2 ** 60 });
  });

  it('data is kept exactly: an own __proto__ key, U+2028, a tab and quotes in ids and values', async () => {
    const repo = freshRepo(em);
    const data = JSON.parse('{"__proto__":{"x":1},"s":"a\\u2028b\\tc\\"d\\ne"}');
    const id = 'we ird "id" é';
    commitDocs(em, repo, { 'README.md': null, [`t/odd/${id}.json`]: blob('t', 'odd', id, data) });
    const dir = outDir();
    await run(repo, dir);
    const rows = await duck(`SELECT id, data, s FROM ${lit(join(dir, 't_odd.parquet'))}`);
    expect(rows).toEqual([{ id, data: JSON.stringify(data), s: 'a\u2028b\tc"d\ne' }]);
    expect(JSON.parse(String(rows[0]?.data))).toEqual(data);
    expect(String(rows[0]?.data)).toContain('"__proto__":{"x":1}');
  });

  it('large types are written in row groups (here 10 rows each)', async () => {
    const repo = freshRepo(em);
    const files: Record<string, string | null> = { 'README.md': null };
    for (let i = 0; i < 25; i++) files[`big/item/i${i}.json`] = blob('big', 'item', `i${i}`, { i });
    commitDocs(em, repo, files);
    const dir = outDir();
    await run(repo, dir, { rowGroupRows: 10 });
    const file = join(dir, 'big_item.parquet');
    const groups = await duck(
      `SELECT row_group_id::INT AS g, max(row_group_num_rows)::INT AS rows FROM parquet_metadata(${lit(file)}) GROUP BY ALL ORDER BY g`,
    );
    expect(groups).toEqual([
      { g: 0, rows: 10 },
      { g: 1, rows: 10 },
      { g: 2, rows: 5 },
    ]);
    expect(await duck(`SELECT count(*)::INT AS n, sum(i)::INT AS s FROM ${lit(file)}`)).toEqual([{ n: 25, s: 300 }]);
  });

  it('an indexed type gets its index fields as columns; --namespace/--type export that type only', async () => {
    const repo = section(3);
    const { docs } = (await import('./sqlite-fixture.js')).meteredDocs(em, repo);
    await docs.declareIndexes([{ namespace: 'github', type: 'repo', fields: ['data.archived', 'data.stars'] }]);
    const dir = outDir();
    await run(repo, dir, { namespace: 'github', type: 'repo' });
    expect(readdirSync(dir).sort()).toEqual(['_docdb.json', 'github_repo.parquet']);
    expect((await columnTypes(join(dir, 'github_repo.parquet'))).map(([c]) => c)).toEqual([
      'id',
      'archived',
      'stars',
      'data',
      '_version',
    ]);
  });
});

function run(repo: string, dir: string, extra: Parameters<typeof runParquet>[3] = {}) {
  return runParquet(em, repo, dir, extra);
}

describe('exportParquet: request budget', () => {
  it('a 10,000-document type cold: 4 requests (ref, commit, the archive’s 302 and codeload: its tree is the listing)', async () => {
    const repo = freshRepo(em);
    const files: Record<string, string | null> = { 'README.md': null };
    for (let i = 0; i < 10_000; i++) files[`big/item/i${i}.json`] = blob('big', 'item', `i${i}`, { i, g: i % 7 });
    commitDocs(em, repo, files);
    const dir = outDir();
    const { result, meter } = await run(repo, dir, { namespace: 'big', type: 'item' });
    expect(result.rows).toBe(10_000);
    expect(meter.requests).toBe(4); // 5 when the tree was listed before the archive was read
    expect(meter.log.filter((l) => l.path.includes('tar')).length).toBe(2);
    const file = join(dir, 'big_item.parquet');
    expect(await duck(`SELECT count(*)::INT AS n, sum(i)::BIGINT::VARCHAR AS s FROM ${lit(file)}`)).toEqual([
      { n: 10_000, s: '49995000' },
    ]);
    // The default row groups: 10,000 rows in one.
    expect(await duck(`SELECT count(DISTINCT row_group_id)::INT AS g FROM parquet_metadata(${lit(file)})`)).toEqual([
      { g: 1 },
    ]);
  }, 120_000);
});
