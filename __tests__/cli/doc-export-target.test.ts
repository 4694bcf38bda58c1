/**
 * `docdb doc export --dir` never deletes what the export did not create (issue 27 §5): a file written into
 * DIR while the export runs survives and the export fails (exit 1, ExportChanged); `--out`/`--dir` through a
 * symbolic link write where the link leads and print that real path (§4, docs/cli.md). The file appears
 * from the emulator's `onResponse` hook as it answers the archive request (`GET …/tarball/<sha>`) — after DIR was checked, before
 * the export is put in place — so nothing depends on timing.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportEmulator, startExportEmulator } from '../export/export-emulator.js';
import { tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliExportTargetToken0123456789abcdefA';
const REPO = 'octo/export-target';
let fx: ExportEmulator;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  fx = await startExportEmulator(TOKEN, REPO);
  tmp = tempDir('docdb-export-target-');
});
afterAll(async () => {
  await fx?.em.stop();
  tmp?.cleanup();
});

const flags = () => ['--repo', REPO, '--api-url', fx.em.url, '--token-env', 'T'];
const env = { T: TOKEN };

describe('docdb doc export --dir when the directory changes during the export', () => {
  it.each([
    ['an empty DIR', false, {}],
    ['DIR with --force', true, { 'old.json': '{}' }],
  ] as const)('%s: the file that appeared survives, the export fails with exit 1', async (_, force, held) => {
    const dir = join(tmp.dir, `dir-${force}`);
    mkdirSync(dir);
    for (const [name, text] of Object.entries(held)) writeFileSync(join(dir, name), text);
    fx.onArchive = () => writeFileSync(join(dir, 'mine.txt'), 'written meanwhile');
    const r = await runCli(['doc', 'export', ...flags(), '--dir', dir, ...(force ? ['--force'] : [])], { env });
    fx.onArchive = undefined;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^docdb doc export: ExportChanged: .* changed during the export \(mine\.txt\): nothing in it was removed/,
    );
    expect(readdirSync(dir).sort()).toEqual(['mine.txt', ...Object.keys(held)].sort());
    expect(readFileSync(join(dir, 'mine.txt'), 'utf8')).toBe('written meanwhile');
    expect(readdirSync(tmp.dir).filter((f) => /\.(tmp|old)-/.test(f))).toEqual([]);
  });

  it('--out and --dir through a symbolic link: written where it leads, that path printed', async () => {
    const real = join(tmp.dir, 'real');
    mkdirSync(real);
    symlinkSync(real, join(tmp.dir, 'site'));
    const out = await runCli(['doc', 'export', ...flags(), '--out', join(tmp.dir, 'site/all.jsonl'), '--json'], {
      env,
    });
    expect(out.code, out.stderr).toBe(0);
    expect(out.json()).toMatchObject({ documents: 200, path: join(real, 'all.jsonl') });
    const dir = await runCli(['doc', 'export', ...flags(), '--dir', join(tmp.dir, 'site/files'), '--json'], { env });
    expect(dir.json()).toMatchObject({ documents: 200, path: join(real, 'files') });
    expect(readdirSync(join(real, 'files/notes/note'))).toHaveLength(200);
  });
});
