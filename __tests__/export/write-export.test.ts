/**
 * The export writers never delete what the export did not create (issue 27 §5) and write where the target
 * really leads, however its links change meanwhile (§4). Things happen "during the export" inside the
 * documents' stream itself — between two documents, after the target was checked and before it is put
 * in place — so no test depends on timing.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DocumentListEntry } from '../../src/document/index.js';
import { ExportChanged, writeDirectory, writeJsonLines } from '../../src/export/write-export.js';
import { tempDir } from '../git/helpers.js';

const tmp = tempDir('docdb-write-export-');
afterAll(() => tmp.cleanup());
let n = 0;
/** A fresh directory for one test, holding `files`. */
function place(files: Record<string, string> = {}): string {
  const dir = join(tmp.dir, `case-${++n}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Three documents; `meanwhile` runs after the first one, while the export is being written. */
async function* documents(meanwhile: () => void = () => {}): AsyncGenerator<DocumentListEntry> {
  for (const id of ['a', 'b', 'c']) {
    if (id === 'b') meanwhile();
    const document = { namespace: 'notes', type: 'note', id, version: '0'.repeat(40), data: id.toUpperCase() };
    yield { namespace: 'notes', doc_type: 'note', id, key: `notes/note/${id}.json`, blobSha: '', document };
  }
}

/** Everything under `dir`, as sorted relative paths (directories end in `/`). */
function tree(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? [`${rel}${e.name}/`, ...tree(dir, `${rel}${e.name}/`)] : [`${rel}${e.name}`]))
    .sort();
}

const leftovers = (dir: string) => readdirSync(dir).filter((f) => /\.(tmp|old)-/.test(f));

describe('--dir: a file that appears in the target during the export survives, and the export fails', () => {
  it('the target was an empty directory', async () => {
    const parent = place({ 'out/.keep-dir': '' });
    const out = join(parent, 'out');
    renameSync(join(out, '.keep-dir'), join(parent, 'unrelated')); // out/ now exists and is empty
    const e = await writeDirectory(
      out,
      documents(() => writeFileSync(join(out, 'mine.txt'), 'written by someone else')),
      false,
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExportChanged);
    expect((e as ExportChanged).message).toMatch(
      /out changed during the export \(mine\.txt\): nothing in it was removed/,
    );
    expect((e as ExportChanged).entries).toEqual(['mine.txt']);
    expect(tree(out)).toEqual(['mine.txt']);
    expect(readFileSync(join(out, 'mine.txt'), 'utf8')).toBe('written by someone else');
    expect(leftovers(parent)).toEqual([]);
  });

  it('the target did not exist when the export started', async () => {
    const parent = place();
    const out = join(parent, 'out');
    const e = await writeDirectory(
      out,
      documents(() => {
        mkdirSync(join(out, 'sub'), { recursive: true });
        writeFileSync(join(out, 'sub/mine.txt'), 'mine');
      }),
      false,
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExportChanged);
    expect(tree(out)).toEqual(['sub/', 'sub/mine.txt']);
    expect(leftovers(parent)).toEqual([]);
  });

  it('with force: what the target held is replaced only if nothing appeared or changed in it', async () => {
    const parent = place({ 'out/old.json': '{}', 'out/deep/old.json': '{}' });
    const out = join(parent, 'out');
    const appeared = await writeDirectory(
      out,
      documents(() => writeFileSync(join(out, 'deep/new.txt'), 'new')),
      true,
    ).catch((x: unknown) => x);
    expect(appeared).toBeInstanceOf(ExportChanged);
    expect((appeared as ExportChanged).entries).toEqual(['deep/new.txt']);
    expect(tree(out)).toEqual(['deep/', 'deep/new.txt', 'deep/old.json', 'old.json']);

    // A recorded file rewritten meanwhile (another size and time) also stops the export, untouched.
    const changed = await writeDirectory(
      out,
      documents(() => {
        writeFileSync(join(out, 'old.json'), '{"changed":true}');
        utimesSync(join(out, 'old.json'), new Date(0), new Date(0));
      }),
      true,
    ).catch((x: unknown) => x);
    expect(changed).toBeInstanceOf(ExportChanged);
    expect((changed as ExportChanged).entries).toEqual(['old.json']);
    expect(readFileSync(join(out, 'old.json'), 'utf8')).toBe('{"changed":true}');

    // Nothing happening meanwhile: the recorded content is replaced by the export, nothing left over.
    const done = await writeDirectory(out, documents(), true);
    expect(done).toEqual({ count: 3, path: out });
    expect(tree(out)).toEqual(['notes/', 'notes/note/', 'notes/note/a.json', 'notes/note/b.json', 'notes/note/c.json']);
    expect(leftovers(parent)).toEqual([]);
  });

  it('an export with nothing happening meanwhile into an empty or absent target', async () => {
    const parent = place();
    const out = join(parent, 'out');
    expect(await writeDirectory(out, documents(), false)).toEqual({ count: 3, path: out });
    expect(tree(out)).toHaveLength(5);
    expect(leftovers(parent)).toEqual([]);
  });
});

describe('symbolic links: followed once at the start, never redirecting the write later', () => {
  it('--out through an existing link writes the file the link names and reports that real path', async () => {
    const parent = place({ 'real/previous.jsonl': 'old\n' });
    symlinkSync(join(parent, 'real'), join(parent, 'site'));
    symlinkSync(join(parent, 'real/previous.jsonl'), join(parent, 'link.jsonl'));
    const viaDir = await writeJsonLines(join(parent, 'site/docs.jsonl'), documents());
    expect(viaDir).toEqual({ count: 3, path: join(parent, 'real/docs.jsonl') });
    const viaFile = await writeJsonLines(join(parent, 'link.jsonl'), documents());
    expect(viaFile.path).toBe(join(parent, 'real/previous.jsonl'));
    expect(readFileSync(join(parent, 'real/previous.jsonl'), 'utf8').split('\n')).toHaveLength(4);
    expect(lstatSync(join(parent, 'link.jsonl')).isSymbolicLink()).toBe(true);
  });

  it('the target file replaced by a link during the export: the link is replaced, its target untouched', async () => {
    const parent = place({ 'outside/victim.txt': 'precious\n', 'work/docs.jsonl': 'old\n' });
    const target = join(parent, 'work/docs.jsonl');
    const r = await writeJsonLines(
      target,
      documents(() => {
        renameSync(target, join(parent, 'work/moved.jsonl'));
        symlinkSync(join(parent, 'outside/victim.txt'), target);
      }),
    );
    expect(r.count).toBe(3);
    expect(readFileSync(join(parent, 'outside/victim.txt'), 'utf8')).toBe('precious\n');
    expect(lstatSync(target).isFile()).toBe(true);
    expect(readFileSync(target, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it.each(['jsonl', 'files'] as const)(
    '%s: the target directory swapped for a link during the export: refused, nothing lands there',
    async (format) => {
      const parent = place({ 'outside/.keep': '' });
      mkdirSync(join(parent, 'work/site'), { recursive: true });
      const site = join(parent, 'work/site');
      const swap = () => {
        renameSync(site, join(parent, 'work/site-before'));
        symlinkSync(join(parent, 'outside'), site);
      };
      const e = await (format === 'jsonl'
        ? writeJsonLines(join(site, 'docs.jsonl'), documents(swap))
        : writeDirectory(join(site, 'docs'), documents(swap), false)
      ).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ExportChanged);
      expect((e as Error).message).toMatch(
        /changed during the export \(it now leads to .*outside through a symbolic link\)/,
      );
      expect(readdirSync(join(parent, 'outside'))).toEqual(['.keep']);
      expect(existsSync(join(parent, 'work/site-before/docs.jsonl'))).toBe(false);
      expect(existsSync(join(parent, 'work/site-before/docs'))).toBe(false);
    },
  );
});
