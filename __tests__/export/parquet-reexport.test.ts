/**
 * `exportParquet` into a directory that already holds something: this export (nothing to do: one request; after a
 * commit: only the changed types' files, only the changed rows), a failed run (the directory as it was), names from
 * the data that try to leave the directory, and directories that are not this export's (refused, untouched).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { ExportTargetError } from '../../src/export/errors.js';
import { tempDir } from '../git/helpers.js';
import { emulator, freshRepo } from '../remote-api/helpers.js';
import { dirState, duck, lit, rowsById, runParquet } from './parquet-fixture.js';
import { blob, commitDocs } from './sqlite-fixture.js';

let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;
beforeAll(async () => {
  em = await emulator();
  tmp = tempDir('docdb-parquet-re-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});
const outDir = () => join(tmp.dir, `export-${++n}`);
const run = (repo: string, dir: string, extra: Parameters<typeof runParquet>[3] = {}) =>
  runParquet(em, repo, dir, extra);

/** A section with `count` github/repo documents and two other/note ones; returns the repository name. */
function section(count: number): string {
  const repo = freshRepo(em);
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < count; i++) {
    files[`github/repo/o/r${i}.json`] = blob('github', 'repo', `o/r${i}`, { stars: i, owner: { login: `u${i}` } });
  }
  files['other/note/a.json'] = blob('other', 'note', 'a', 'just text');
  files['other/note/b.json'] = blob('other', 'note', 'b', 'more text');
  commitDocs(em, repo, files, 'seed');
  return repo;
}

/** Entries a run may leave behind (temporary parts, spills, metadata). */
const leftovers = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('.docdb-'));

describe('exportParquet: the same directory again', () => {
  it('section unchanged: one request (the ref read), nothing rewritten', async () => {
    const repo = section(5);
    const dir = outDir();
    await run(repo, dir);
    const before = dirState(dir);
    const { result, meter } = await run(repo, dir);
    expect(result).toMatchObject({ mode: 'unchanged', rows: 0, written: [] });
    expect(meter.requests).toBe(1);
    expect(dirState(dir)).toEqual(before);
  });

  it('after a commit: only the changed type’s file is rebuilt, with exactly the changed rows', async () => {
    const repo = section(200);
    const dir = outDir();
    const first = await run(repo, dir);
    const note = dirState(dir).get('other_note.parquet');
    const before = await rowsById(join(dir, 'github_repo.parquet'));
    commitDocs(em, repo, {
      'github/repo/o/r7.json': blob('github', 'repo', 'o/r7', { stars: 7.5, owner: { login: 'new' } }),
      'github/repo/o/r9.json': null,
      'github/repo/o/new.json': blob('github', 'repo', 'o/new', { stars: 1 }),
      'other/kind/x.json': blob('other', 'kind', 'x', { k: true }),
    });
    const { result, meter, version } = await run(repo, dir);
    expect(result).toMatchObject({ mode: 'updated', rows: 4 });
    expect(result.written.sort()).toEqual(['github_repo.parquet', 'other_kind.parquet']);
    // head; changes (compare, old blob SHAs: the `to` is the tip the store just read, so no second ref read);
    // one GraphQL read of the 3 changed documents; the new type's columns: the index declaration (absent here).
    // The 197 unchanged rows come from the previous file.
    expect(meter.log.map((l) => `${l.status} ${l.path.replace(/^\/repos\/[^/]+\/[^/]+/, '')}`)).toEqual([
      '200 /git/ref/docdb/documents',
      expect.stringMatching(/^200 \/compare\//),
      '200 /graphql',
      '200 /graphql',
      '404 /contents/_docdb/indexes.json',
    ]);
    expect(dirState(dir).get('other_note.parquet')).toEqual(note);
    const after = await rowsById(join(dir, 'github_repo.parquet'));
    const changed = ['o/r7', 'o/r9', 'o/new'];
    expect([...after.keys()].sort()).toEqual([...before.keys(), 'o/new'].filter((id) => id !== 'o/r9').sort());
    // Unchanged rows as they were (stars is DOUBLE now: see below).
    const same = (r: Record<string, unknown> | undefined) => r && { ...r, stars: Number(r.stars) };
    for (const [id, row] of after) if (!changed.includes(id)) expect(same(row)).toEqual(same(before.get(id)));
    expect(before.get('o/r3')?._version).toBe(first.version);
    // A fraction in the column: its type is worked out again over every row (now DOUBLE).
    expect(after.get('o/r7')).toMatchObject({ stars: 7.5, 'owner.login': 'new', _version: version });
    expect(after.get('o/r3')).toMatchObject({ stars: 3 });
    expect(after.get('o/new')).toMatchObject({ stars: 1, 'owner.login': null, _version: version });
    expect(await duck(`SELECT id, k FROM ${lit(join(dir, 'other_kind.parquet'))}`)).toEqual([{ id: 'x', k: true }]);
    const meta = JSON.parse(readFileSync(join(dir, '_docdb.json'), 'utf8'));
    expect(meta.commit).toBe(version);
    expect(meta.files.map((f: { file: string; rows: number }) => [f.file, f.rows]).sort()).toEqual([
      ['github_repo.parquet', 200],
      ['other_kind.parquet', 1],
      ['other_note.parquet', 2],
    ]);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a type whose documents are all removed loses its file; _docdb.json no longer lists it', async () => {
    const repo = section(2);
    const dir = outDir();
    await run(repo, dir);
    commitDocs(em, repo, { 'other/note/a.json': null, 'other/note/b.json': null });
    const { result } = await run(repo, dir);
    expect(result).toMatchObject({ mode: 'updated', rows: 2, written: [] });
    expect(readdirSync(dir).sort()).toEqual(['_docdb.json', 'github_repo.parquet']);
    const meta = JSON.parse(readFileSync(join(dir, '_docdb.json'), 'utf8'));
    expect(meta.files.map((f: { file: string }) => f.file)).toEqual(['github_repo.parquet']);
  });

  it('a recorded commit no longer in the section (history rewritten): every file is rebuilt, gone types removed', async () => {
    const repo = section(3);
    const dir = outDir();
    await run(repo, dir);
    const rewritten = em.state.commitFiles(`octo/${repo}`, {
      branch: 'refs/heads/rewrite',
      orphan: true,
      files: { 'github/repo/z.json': blob('github', 'repo', 'z', { stars: 9 }) },
    });
    em.state.setRef(`octo/${repo}`, 'refs/docdb/documents', rewritten);
    const { result } = await run(repo, dir);
    expect(result).toMatchObject({ mode: 'created', rows: 1, version: rewritten });
    expect(readdirSync(dir).sort()).toEqual(['_docdb.json', 'github_repo.parquet']);
    expect(await duck(`SELECT id, stars::INT AS s FROM ${lit(join(dir, 'github_repo.parquet'))}`)).toEqual([
      { id: 'z', s: 9 },
    ]);
  });
});

describe('exportParquet: a directory that lost a file, or holds a crashed run’s temporaries', () => {
  it('a listed file removed by hand: the next run after a commit builds every file again', async () => {
    const repo = section(3);
    const dir = outDir();
    await run(repo, dir);
    unlinkSync(join(dir, 'github_repo.parquet'));
    commitDocs(em, repo, { 'other/note/a.json': blob('other', 'note', 'a', 'changed') });
    const { result } = await run(repo, dir);
    expect(result).toMatchObject({ mode: 'created', rows: 5 });
    expect(await duck(`SELECT count(*)::INT AS n FROM ${lit(join(dir, 'github_repo.parquet'))}`)).toEqual([{ n: 3 }]);
  });

  it('an otherwise empty directory holding only .docdb- temporaries is used (they are not content)', async () => {
    const repo = section(1);
    const dir = outDir();
    mkdirSync(dir);
    writeFileSync(join(dir, '.docdb-spill-0123456789ab'), 'left by a crash');
    await expect(run(repo, dir)).resolves.toMatchObject({ result: { mode: 'created' } });
    // A file of anyone else's still makes it foreign.
    const other = outDir();
    mkdirSync(other);
    writeFileSync(join(other, '.docdb-spill-0123456789ab'), 'left by a crash');
    writeFileSync(join(other, 'mine.txt'), 'mine');
    await expect(run(repo, other)).rejects.toThrow(ExportTargetError);
  });
});

describe('exportParquet: a failed run', () => {
  it('fails while the changed files are being built: the directory is as it was, no temporary file left', async () => {
    const repo = section(30);
    const dir = outDir();
    await run(repo, dir);
    const before = dirState(dir);
    commitDocs(em, repo, {
      'github/repo/o/r1.json': blob('github', 'repo', 'o/r1', { stars: 100 }),
      'other/note/c.json': blob('other', 'note', 'c', 'third'),
    });
    const stop = () => {
      throw new Error('stopped on purpose');
    };
    await expect(run(repo, dir, { onProgress: (k) => (k === 2 ? stop() : undefined) })).rejects.toThrow(/on purpose/);
    expect(dirState(dir)).toEqual(before);
    // A fresh directory: not left behind at all.
    const fresh = outDir();
    await expect(run(repo, fresh, { onProgress: (k) => (k === 31 ? stop() : undefined) })).rejects.toThrow(
      /on purpose/,
    );
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('exportParquet: names from the data', () => {
  it('odd type names stay one file inside the directory; case-folded twins get _2', async () => {
    const repo = freshRepo(em);
    const types = ['..x', '.hidden', 'a\\b', 'x:y*z?', 'Repo', 'repo', 'end.'];
    const files: Record<string, string | null> = { 'README.md': null };
    for (const t of types) files[`ns/${t}/1.json`] = blob('ns', t, '1', { t });
    commitDocs(em, repo, files);
    const parent = outDir();
    mkdirSync(parent);
    const dir = join(parent, 'inner');
    await run(repo, dir);
    expect(readdirSync(parent)).toEqual(['inner']);
    const meta = JSON.parse(readFileSync(join(dir, '_docdb.json'), 'utf8'));
    const byType = Object.fromEntries(meta.files.map((f: { type: string; file: string }) => [f.type, f.file]));
    expect(readdirSync(dir).sort()).toEqual(['_docdb.json', ...Object.values(byType)].sort());
    expect(byType['a\\b']).toBe('ns_a_b.parquet');
    expect(byType['x:y*z?']).toBe('ns_x_y_z_.parquet');
    expect(byType['end.']).toBe('ns_end_.parquet');
    expect([byType.Repo, byType.repo].sort()).toEqual(['ns_Repo.parquet', 'ns_repo_2.parquet']);
    for (const t of types) {
      expect(await duck(`SELECT data->>'$.t' AS t FROM ${lit(join(dir, byType[t]))}`)).toEqual([{ t }]);
    }
  });

  it('a document whose blob claims a type named ../../x never writes outside the directory', async () => {
    const repo = freshRepo(em);
    // The key says evil/t; the blob inside says type "../../x" (a hand-made or hostile commit).
    commitDocs(em, repo, { 'README.md': null, 'evil/t/1.json': blob('evil', '../../x', '1', { a: 1 }) });
    const parent = outDir();
    mkdirSync(parent);
    const dir = join(parent, 'a', 'b');
    await expect(run(repo, dir)).rejects.toThrow(/holds a different identity \(evil\/\.\.\/\.\.\/x\/1\)/);
    // Nothing was written anywhere: no file under the parent (the created directories are empty).
    expect(readdirSync(parent, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())).toEqual([]);
  });

  it('a _docdb.json naming a file outside the directory makes it foreign: refused, nothing read or removed', async () => {
    const repo = section(2);
    const dir = outDir();
    await run(repo, dir);
    const outside = join(tmp.dir, 'outside.parquet');
    writeFileSync(outside, 'not yours');
    const metaPath = join(dir, '_docdb.json');
    const meta = JSON.parse(readFileSync(metaPath, 'utf8'));
    meta.files[0].file = '../outside.parquet';
    meta.commit = '0'.repeat(40);
    writeFileSync(metaPath, JSON.stringify(meta));
    const before = dirState(dir);
    await expect(run(repo, dir)).rejects.toThrow(ExportTargetError);
    expect(dirState(dir)).toEqual(before);
    expect(readFileSync(outside, 'utf8')).toBe('not yours');
  });
});

describe('exportParquet: a directory that is not this export', () => {
  it('refuses a non-empty directory without _docdb.json, and one of another section, leaving both as they were', async () => {
    const repo = section(2);
    const foreign = outDir();
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    await expect(run(repo, foreign)).rejects.toThrow(/holds no Parquet export of docdb/);
    expect(readdirSync(foreign)).toEqual(['notes.txt']);
    const other = outDir();
    await run(section(2), other);
    const before = dirState(other);
    await expect(run(repo, other)).rejects.toThrow(/holds an export of octo\/.* not of octo\//);
    expect(dirState(other)).toEqual(before);
    // Another filter of the same section is another export too.
    await expect(run(repo, outDir(), {})).resolves.toBeDefined();
    const filtered = outDir();
    await run(repo, filtered, { namespace: 'other' });
    await expect(run(repo, filtered)).rejects.toThrow(/\(other\/\*\), not of .*\(every type\)/);
  });

  it('a file in the way is refused; an empty directory is used', async () => {
    const repo = section(1);
    const file = join(tmp.dir, `plain-${++n}`);
    writeFileSync(file, 'x');
    await expect(run(repo, file)).rejects.toThrow(/is not a directory/);
    const empty = outDir();
    mkdirSync(empty);
    await expect(run(repo, empty)).resolves.toMatchObject({ result: { mode: 'created' } });
  });
});
