/**
 * `exportSqlite` (issue 41, "SQLite, in git-history's shape") against the GitHub API emulator, each file read back
 * by the sqlite3 shell: the tables and columns, hostile names, the in-place re-export (nothing, or only what
 * changed), refusals that leave a file alone, and the request budget of a cold export.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { ExportTargetError } from '../../src/export/errors.js';
import { exportSqlite } from '../../src/export/sqlite/export-sqlite.js';
import { tempDir } from '../git/helpers.js';
import { emulator, freshRepo } from '../remote-api/helpers.js';
import { blob, commitDocs, meteredDocs, sql } from './sqlite-fixture.js';

let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;
beforeAll(async () => {
  em = await emulator();
  tmp = tempDir('docdb-sqlite-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});
const file = () => join(tmp.dir, `export-${++n}.db`);

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

async function run(repo: string, out: string, extra: { namespace?: string; type?: string; history?: boolean } = {}) {
  const { docs, meter } = meteredDocs(em, repo);
  const version = (await docs.head()) as string;
  const result = await exportSqlite(docs, { file: out, section: `octo/${repo} ${docs.ref}`, version, ...extra });
  return { result, meter, version };
}

describe('exportSqlite: the tables', () => {
  it('a table per type with id, the sample’s leaf columns, data as JSON and _version; _docdb names the section', async () => {
    const repo = section(5);
    const out = file();
    const { result, version } = await run(repo, out);
    expect(result).toMatchObject({ mode: 'created', rows: 7, version });
    const tables = sql<{ name: string }>(out, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    expect(tables.map((t) => t.name)).toEqual(['_docdb', '_docdb_tables', 'github_repo', 'other_note']);
    const cols = sql<{ name: string; pk: number }>(out, "SELECT name, pk FROM pragma_table_info('github_repo')");
    expect(cols.map((c) => c.name)).toEqual(['id', 'stars', 'owner.login', 'archived', 'topics', 'data', '_version']);
    expect(cols.find((c) => c.name === 'id')?.pk).toBe(1);
    const rows = sql(out, `SELECT * FROM github_repo WHERE id = 'o/r3'`);
    expect(rows).toEqual([
      {
        id: 'o/r3',
        stars: 3,
        'owner.login': 'u0',
        archived: 0,
        topics: '["a","t3"]',
        data: JSON.stringify({ stars: 3, owner: { login: 'u0' }, archived: false, topics: ['a', 't3'] }),
        _version: version,
      },
    ]);
    // SQLite's JSON functions read the data column (what Datasette's users write in SQL).
    expect(sql(out, `SELECT json_extract(data, '$.owner.login') AS login FROM github_repo WHERE id = 'o/r4'`)).toEqual([
      { login: 'u1' },
    ]);
    expect(sql(out, 'SELECT id, data FROM other_note ORDER BY id')).toEqual([
      { id: 'a', data: '"just text"' },
      { id: 'b', data: '"more text"' },
    ]);
    expect(sql(out, 'SELECT * FROM _docdb')).toEqual([
      expect.objectContaining({
        section: `octo/${repo} refs/docdb/documents`,
        ref: 'refs/docdb/documents',
        commit: version,
        namespace: null,
        type: null,
        history: 0,
      }),
    ]);
  });

  it('an indexed type gets its index fields as columns', async () => {
    const repo = section(3);
    const { docs } = meteredDocs(em, repo);
    await docs.declareIndexes([{ namespace: 'github', type: 'repo', fields: ['data.archived', 'data.stars'] }]);
    const out = file();
    await run(repo, out, { namespace: 'github', type: 'repo' });
    const cols = sql<{ name: string }>(out, "SELECT name FROM pragma_table_info('github_repo')");
    expect(cols.map((c) => c.name)).toEqual(['id', 'archived', 'stars', 'data', '_version']);
    expect(sql(out, 'SELECT count(*) AS n FROM github_repo')).toEqual([{ n: 3 }]);
    expect(sql(out, "SELECT name FROM sqlite_master WHERE name = 'other_note'")).toEqual([]);
  });

  it('names from the data are quoted: a type and fields named to break out of SQL stay names', async () => {
    const repo = freshRepo(em);
    const type = 'x"; DROP TABLE _docdb; --';
    const data = { 'a"b': 1, "c'); DROP TABLE _docdb; --": 'v', ID: 'shadow', _version: 'mine' };
    commitDocs(em, repo, {
      'README.md': null,
      [`evil/${type}/1.json`]: blob('evil', type, '1', data),
      // Same table name once folded the way SQLite folds names: gets its own table.
      'Evil/x"; drop table _docdb; --/2.json': blob('Evil', 'x"; drop table _docdb; --', '2', { n: 2 }),
    });
    const out = file();
    await run(repo, out);
    const tables = sql<{ name: string; namespace: string; type: string }>(
      out,
      'SELECT name, namespace, type FROM _docdb_tables ORDER BY name',
    );
    expect(tables).toEqual([
      { name: 'Evil_x"; drop table _docdb; --', namespace: 'Evil', type: 'x"; drop table _docdb; --' },
      { name: `evil_${type}_2`, namespace: 'evil', type },
    ]);
    const cols = sql<{ name: string }>(out, `SELECT name FROM pragma_table_info('evil_x"; DROP TABLE _docdb; --_2')`);
    expect(cols.map((c) => c.name)).toEqual([
      'id',
      'a"b',
      "c'); DROP TABLE _docdb; --",
      'data.ID',
      'data._version',
      'data',
      '_version',
    ]);
    expect(sql(out, `SELECT "a""b" AS v FROM "evil_x""; DROP TABLE _docdb; --_2"`)).toEqual([{ v: 1 }]);
    expect(sql(out, 'SELECT count(*) AS n FROM _docdb')).toEqual([{ n: 1 }]);
  });
});

describe('exportSqlite: the same file again', () => {
  it('unchanged section: one request (the ref read), the file not rewritten', async () => {
    const repo = section(5);
    const out = file();
    await run(repo, out);
    const before = { bytes: readFileSync(out), mtime: statSync(out).mtimeMs };
    const { result, meter } = await run(repo, out);
    expect(result.mode).toBe('unchanged');
    expect(meter.requests).toBe(1);
    expect(readFileSync(out).equals(before.bytes)).toBe(true);
    expect(statSync(out).mtimeMs).toBe(before.mtime);
  });

  it('after a commit: only the changed documents, in place; removed ones go', async () => {
    const repo = section(200);
    const out = file();
    await run(repo, out);
    commitDocs(em, repo, {
      'github/repo/o/r7.json': blob('github', 'repo', 'o/r7', { stars: 700, owner: { login: 'new' } }),
      'github/repo/o/r9.json': null,
      'github/repo/o/new.json': blob('github', 'repo', 'o/new', { stars: 1 }),
      'other/kind/x.json': blob('other', 'kind', 'x', { k: true }),
    });
    const { result, meter, version } = await run(repo, out);
    expect(result).toMatchObject({ mode: 'updated', rows: 4 });
    // head; changes (compare, old blob SHAs: the `to` is the tip the store just read, so no second ref read);
    // one GraphQL read of the 3 changed documents; a type new to the file: the index declaration (absent here).
    expect(meter.log.map((l) => `${l.status} ${l.path.replace(/^\/repos\/[^/]+\/[^/]+/, '')}`)).toEqual([
      '200 /git/ref/docdb/documents',
      expect.stringMatching(/^200 \/compare\//),
      '200 /graphql',
      '200 /graphql',
      '404 /contents/_docdb/indexes.json',
    ]);
    expect(meter.log.some((l) => l.path.includes('tarball'))).toBe(false);
    expect(sql(out, `SELECT stars, "owner.login" AS login, _version FROM github_repo WHERE id = 'o/r7'`)).toEqual([
      { stars: 700, login: 'new', _version: version },
    ]);
    expect(sql(out, `SELECT count(*) AS n FROM github_repo WHERE id = 'o/r9'`)).toEqual([{ n: 0 }]);
    expect(sql(out, 'SELECT count(*) AS n FROM github_repo')).toEqual([{ n: 200 }]);
    expect(sql(out, 'SELECT id, k FROM other_kind')).toEqual([{ id: 'x', k: 1 }]);
    expect(sql(out, 'SELECT "commit" FROM _docdb')).toEqual([{ commit: version }]);
  });

  it('a recorded commit no longer in the section (history rewritten): the file is rebuilt, not patched', async () => {
    const repo = section(3);
    const out = file();
    await run(repo, out);
    // Rewrite the section: a new root commit with other documents, the ref moved onto it.
    const rewritten = em.state.commitFiles(`octo/${repo}`, {
      branch: 'refs/heads/rewrite',
      orphan: true,
      files: { 'github/repo/z.json': blob('github', 'repo', 'z', { stars: 9 }) },
    });
    em.state.setRef(`octo/${repo}`, 'refs/docdb/documents', rewritten);
    const { result, version } = await run(repo, out);
    expect(result).toMatchObject({ mode: 'created', rows: 1, version: rewritten });
    expect(version).toBe(rewritten);
    expect(sql(out, 'SELECT id, stars FROM github_repo')).toEqual([{ id: 'z', stars: 9 }]);
    expect(sql(out, "SELECT name FROM sqlite_master WHERE name = 'other_note'")).toEqual([]);
  });

  it('refuses a file that is not its export, and one of another section, leaving both as they were', async () => {
    const repo = section(2);
    const foreign = file();
    writeFileSync(foreign, 'my notes, not a database');
    await expect(run(repo, foreign)).rejects.toThrow(ExportTargetError);
    expect(readFileSync(foreign, 'utf8')).toBe('my notes, not a database');
    const other = file();
    await run(section(2), other);
    const before = readFileSync(other);
    await expect(run(repo, other)).rejects.toThrow(/holds an export of octo\/data-.* not of octo\//);
    expect(readFileSync(other).equals(before)).toBe(true);
  });
});

describe('exportSqlite: request budget', () => {
  it('a 10,000-document type cold: 4 requests (ref, commit, the archive’s 302 and codeload: its tree is the listing)', async () => {
    const repo = freshRepo(em);
    const files: Record<string, string | null> = { 'README.md': null };
    for (let i = 0; i < 10_000; i++) files[`big/item/i${i}.json`] = blob('big', 'item', `i${i}`, { i, g: i % 7 });
    commitDocs(em, repo, files);
    const out = file();
    const { result, meter } = await run(repo, out, { namespace: 'big', type: 'item' });
    expect(result.rows).toBe(10_000);
    expect(meter.requests).toBe(4); // 5 when the tree was listed before the archive was read
    expect(meter.log.filter((l) => l.path.includes('tar')).length).toBe(2);
    expect(sql(out, 'SELECT count(*) AS n, sum(i) AS s FROM big_item')).toEqual([{ n: 10_000, s: 49_995_000 }]);
  }, 120_000);
});

describe('exportSqlite: a type whose recursive listing GitHub truncates', () => {
  // GitHub truncates a recursive tree listing past 100,000 entries or 7 MB; this emulator past 1,000 entries, so
  // the smallest section that is truncated is small: 1,000 documents, their two directories and the README.
  const LIMIT = 1_000;
  let small: EmulatorHandle;
  let repo: string;
  beforeAll(async () => {
    small = await emulator({ treeTruncateLimit: LIMIT });
    repo = freshRepo(small);
    const files: Record<string, string | null> = { 'README.md': null };
    for (let i = 0; i < LIMIT; i++) files[`big/item/i${i}.json`] = blob('big', 'item', `i${i}`, { i });
    commitDocs(small, repo, files);
  });
  afterAll(async () => {
    await small?.stop();
  });
  const trees = (meter: { log: { path: string }[] }) => meter.log.filter((l) => l.path.includes('/git/trees/')).length;

  async function exportWith(archiveFetch?: typeof fetch) {
    const { docs, meter } = meteredDocs(small, repo, archiveFetch ? { archiveFetch } : {});
    const version = (await docs.head()) as string;
    const out = file();
    const result = await exportSqlite(docs, {
      file: out,
      section: `octo/${repo} ${docs.ref}`,
      version,
      namespace: 'big',
      type: 'item',
    });
    return { out, result, meter };
  }

  it('cold: 4 requests — the archive read first, its verified tree the listing (no truncated listing, no level)', async () => {
    // The section is truncated: listing it (no values) costs the recursive listing and then the type's level.
    const plain = meteredDocs(small, repo);
    expect((await plain.docs.list({ namespace: 'big', type: 'item' })).documents).toHaveLength(LIMIT);
    expect(trees(plain.meter)).toBe(2);
    const { out, result, meter } = await exportWith();
    expect(result.rows).toBe(LIMIT);
    // ref, commit, tarball 302, codeload: no tree request at all (6 when the tree was listed first).
    expect(meter.log.map((l) => l.path.replace(/^\/repos\/[^/]+\/[^/]+/, '').split('/')[1])).toEqual([
      'git',
      'git',
      'tarball',
      expect.any(String), // codeload's path
    ]);
    expect(meter.requests).toBe(4);
    expect(trees(meter)).toBe(0);
    expect(sql(out, 'SELECT count(*) AS n, sum(i) AS s FROM big_item')).toEqual([{ n: LIMIT, s: 499_500 }]);
  }, 60_000);

  it('an archive with one document’s bytes changed is not the listing: the tree API lists, the true value is read', async () => {
    const tamper: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (new URL(String(input)).origin === small.url) return res;
      const tar = gunzipSync(Buffer.from(await res.arrayBuffer()));
      const at = tar.indexOf('"i": 7\n');
      expect(at).toBeGreaterThan(0);
      tar.write('"i": 8\n', at); // same length: the tar stays well-formed, the blob no longer hashes to i7's
      return new Response(gzipSync(tar), { status: res.status });
    };
    const { out, result, meter } = await exportWith(tamper);
    expect(result.rows).toBe(LIMIT);
    expect(sql(out, `SELECT i FROM big_item WHERE id = 'i7'`)).toEqual([{ i: 7 }]);
    expect(sql(out, 'SELECT sum(i) AS s FROM big_item')).toEqual([{ s: 499_500 }]);
    // The unverified archive gave no listing (the truncated one and the level were read) and one value was
    // read again by its SHA (GraphQL); the archive was not downloaded twice.
    expect(trees(meter)).toBe(2);
    expect(meter.log.filter((l) => l.path.endsWith('/graphql')).length).toBe(1);
    expect(meter.log.filter((l) => l.path.includes('tar')).length).toBe(2);
  }, 60_000);
});
