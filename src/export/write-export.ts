/**
 * Writing an export of documents to disk without ever leaving half a result: JSON Lines go to a temporary
 * file beside the target that is renamed over it at the end; one-file-per-document goes to a temporary
 * directory put in place at the end without removing anything the export did not create (place-dir.ts).
 * Both write where the target really leads (symbolic links resolved once, at the start: real-path.ts).
 * Shared by the CLI (`docdb doc export`) and the Action (`mode: export`).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Envelope } from '../document/envelope.js';
import type { DocumentListEntry } from '../document/index.js';
import { ExportChanged, ExportTargetError } from './errors.js';
import { formatItems, type TextFormat } from './formats.js';
import { placeDirectory, type Snapshot, snapshot } from './place-dir.js';
import { assertStillReal, realTarget } from './real-path.js';

export { ExportChanged, ExportTargetError };

/** One envelope as a JSON Lines record. */
export const jsonLine = (env: Envelope): string => `${JSON.stringify(env)}\n`;

/** Where an export went: the count and the real path written (symbolic links resolved). */
export interface ExportWritten {
  count: number;
  path: string;
}

/**
 * Create the directory `dir` (a real path) and its missing parents, and check that it is still where it
 * was resolved: a missing component created as a symbolic link meanwhile would lead elsewhere.
 */
async function realDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await assertStillReal(dir);
}

/**
 * Write `chunks` of text to `file` atomically: a temporary name in the real directory of `file`, renamed
 * at the end, so a symbolic link put in place of `file` meanwhile is replaced, not followed. An existing
 * link is followed: the file it names is replaced. Returns the real path written.
 *
 * @example
 * await writeTextFile('/tmp/rows.csv', formatItems(rows, 'csv', { columns: ['id'] }));
 */
export async function writeTextFile(file: string, chunks: AsyncIterable<string>): Promise<string> {
  const target = await realTarget(file);
  await realDirectory(dirname(target));
  const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    // pipeline: backpressure, and on a failure of either side the file stream is destroyed and closed before
    // it settles — no write lands after the temporary file is removed, no stream error goes unhandled.
    await pipeline(chunks, createWriteStream(temp, { flags: 'wx' }));
    await assertStillReal(dirname(target));
    await rename(temp, target);
    return target;
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/** The envelopes of `entries` (entries without one are skipped), counted for progress. */
async function* envelopes(
  entries: AsyncIterable<DocumentListEntry>,
  onProgress?: (n: number) => void,
): AsyncGenerator<Envelope> {
  let n = 0;
  for await (const e of entries) {
    if (!e.document) continue;
    onProgress?.(++n);
    yield e.document;
  }
}

/**
 * Write the envelopes of `entries` to `file` in `format` (JSON Lines, one JSON array, or CSV with
 * `columns`: paths into the envelope such as `id` or `data.stars`), atomically as {@link writeTextFile}.
 * Returns the count and the real path.
 *
 * @example
 * const { count } = await writeFormatted('/tmp/repos.csv', docs.stream({ withData: true }), { format: 'csv', columns: ['id', 'data.stars'] });
 */
export async function writeFormatted(
  file: string,
  entries: AsyncIterable<DocumentListEntry>,
  options: { format: TextFormat; columns?: readonly string[] },
  onProgress?: (n: number) => void,
): Promise<ExportWritten> {
  let count = 0;
  const counted = envelopes(entries, (n) => {
    count = n;
    onProgress?.(n);
  });
  const columns = options.columns ? { columns: options.columns } : {};
  const path = await writeTextFile(file, formatItems(counted, options.format, columns));
  return { count, path };
}

/**
 * Write `entries` as JSON Lines to `file` ({@link writeFormatted} in `jsonl`). Returns the count and the
 * real path.
 *
 * @example
 * const { count, path } = await writeJsonLines('/tmp/section.jsonl', docs.stream({ withData: true }));
 */
export function writeJsonLines(
  file: string,
  entries: AsyncIterable<DocumentListEntry>,
  onProgress?: (n: number) => void,
): Promise<ExportWritten> {
  return writeFormatted(file, entries, { format: 'jsonl' }, onProgress);
}

/**
 * Check a `--dir` target: absent, or an empty directory, or any directory with `force`. Returns what it
 * holds (empty when absent), the record of what `force` may replace.
 *
 * @example
 * await assertDirTarget('./out', false); // throws ExportTargetError when ./out has files
 */
export async function assertDirTarget(dir: string, force: boolean): Promise<Snapshot> {
  const st = await stat(dir).catch(() => undefined);
  if (!st) return new Map();
  if (!st.isDirectory()) throw new ExportTargetError(`${dir} exists and is not a directory`);
  if (!force && (await readdir(dir)).length > 0) {
    throw new ExportTargetError(`${dir} exists and is not empty (pass --force to replace it)`);
  }
  return force ? await snapshot(dir) : new Map();
}

/**
 * One file per document at `<dir>/<namespace>/<type>/<id>.json` (its canonical key), written into a
 * fresh sibling directory put in place at the end. What `dir` held at the start is replaced only with
 * `force`; anything that appears in it during the export is never removed: the export then fails with
 * `ExportChanged` (place-dir.ts). Returns the count and the real path.
 *
 * @example
 * const { count } = await writeDirectory('./out', docs.stream({ withData: true }), false);
 */
export async function writeDirectory(
  dir: string,
  entries: AsyncIterable<DocumentListEntry>,
  force: boolean,
  onProgress?: (n: number) => void,
): Promise<ExportWritten> {
  const target = await realTarget(dir);
  const before = await assertDirTarget(target, force);
  await realDirectory(dirname(target));
  const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  await mkdir(temp);
  let n = 0;
  try {
    for await (const e of entries) {
      if (!e.document) continue;
      const file = resolve(temp, ...e.key.split('/'));
      // Keys follow the identity rules (no `..`), but the path is checked anyway: nothing is written outside.
      if (relative(temp, file).startsWith('..') || !file.startsWith(`${temp}${sep}`)) {
        throw new ExportTargetError(`document key ${e.key} would leave the export directory`);
      }
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, `${JSON.stringify(e.document, null, 2)}\n`, { flag: 'wx' });
      n++;
      onProgress?.(n);
    }
    await assertStillReal(dirname(target));
    await placeDirectory(temp, target, before);
    return { count: n, path: target };
  } catch (e) {
    await rm(temp, { recursive: true, force: true });
    throw e;
  }
}
