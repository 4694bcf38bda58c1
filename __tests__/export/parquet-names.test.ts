/**
 * The Parquet export's file names (src/export/parquet/file-names.ts) and the staging guard: names come from the
 * data, so `../../x`, separators and hidden names must give one harmless file name inside the directory.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileNameFor, fileNames, isOwnFileName, safeBase } from '../../src/export/parquet/file-names.js';
import { Staging } from '../../src/export/parquet/staging.js';

describe('Parquet file names', () => {
  it('separators, dot segments and what Windows refuses become _; one component, never hidden', () => {
    expect(safeBase('evil', '../../x')).toBe('evil_.._.._x');
    expect(safeBase('..', '/etc/passwd')).toBe('_.__etc_passwd');
    expect(safeBase('a', 'b\\c:d*e?"f<g>h|i\u0000j\nk')).toBe('a_b_c_d_e__f_g_h_i_j_k');
    expect(safeBase('a', 'b.')).toBe('a_b_');
    for (const base of [safeBase('evil', '../../x'), safeBase('..', '..'), safeBase('.', '')]) {
      expect(base).not.toMatch(/[/\\]/);
      expect(base.startsWith('.')).toBe(false);
    }
  });

  it('long names are cut under 255 bytes (multi-byte characters whole); twins get _2 with ASCII case folded', () => {
    const long = safeBase('ns', 'é'.repeat(300));
    expect(new TextEncoder().encode(`${long}_99.parquet`).length).toBeLessThanOrEqual(255);
    expect(long.endsWith('é')).toBe(true);
    const names = fileNames(['github_repo.parquet', 'notes.txt']);
    expect(fileNameFor(names, 'GitHub', 'repo')).toBe('GitHub_repo_2.parquet');
    expect(fileNameFor(names, 'github', 'REPO')).toBe('github_REPO_3.parquet');
    expect(fileNameFor(names, 'a', 'b_c')).toBe('a_b_c.parquet');
    expect(fileNameFor(names, 'a_b', 'c')).toBe('a_b_c_2.parquet');
  });

  it('a name read back from _docdb.json is ours only when it is one plain .parquet component', () => {
    expect(isOwnFileName('github_repo.parquet')).toBe(true);
    for (const bad of ['../x.parquet', 'a/b.parquet', 'a\\b.parquet', '.hidden.parquet', 'x.txt', '_docdb.json']) {
      expect(isOwnFileName(bad)).toBe(false);
    }
  });

  it('the staging guard refuses a path that leaves the directory', () => {
    const staging = new Staging('/srv/out', false);
    expect(staging.pathOf('github_repo.parquet')).toBe(join('/srv/out', 'github_repo.parquet'));
    expect(() => staging.pathOf('../x.parquet')).toThrow(/would leave the export directory/);
    expect(() => staging.pathOf('.')).toThrow(/would leave the export directory/);
  });
});
