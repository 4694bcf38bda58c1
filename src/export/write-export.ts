/**
 * Writing an export of documents to disk without ever leaving half a result: JSON Lines go to a temporary
 * file beside the target that is renamed over it at the end; one-file-per-document goes to a temporary
 * directory renamed into place. Shared by the CLI (`docdb doc export`) and the Action (`mode: export`).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Envelope } from '../document/envelope.js';
import type { DocumentListEntry } from '../document/index.js';

/** Why an export target cannot be used (the caller turns it into its own error naming the flag or input). */
export class ExportTargetError extends Error {}

/** One envelope as a JSON Lines record. */
export const jsonLine = (env: Envelope): string => `${JSON.stringify(env)}\n`;

/**
 * Write `entries` as JSON Lines to `file` (atomically: a temporary name, renamed at the end). Returns the count.
 *
 * @example
 * const n = await writeJsonLines('/tmp/section.jsonl', docs.stream({ withData: true }));
 */
export async function writeJsonLines(
  file: string,
  entries: AsyncIterable<DocumentListEntry>,
  onProgress?: (n: number) => void,
): Promise<number> {
  const target = resolve(file);
  await mkdir(dirname(target), { recursive: true });
  const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  let n = 0;
  async function* lines(): AsyncGenerator<string> {
    for await (const e of entries) {
      if (!e.document) continue;
      n++;
      onProgress?.(n);
      yield jsonLine(e.document);
    }
  }
  try {
    // pipeline: backpressure, and on a failure of either side the file stream is destroyed and closed before
    // it settles — no write lands after the temporary file is removed, no stream error goes unhandled.
    await pipeline(lines, createWriteStream(temp, { flags: 'wx' }));
    await rename(temp, target);
    return n;
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/**
 * Check a `--dir` target: absent, or an empty directory, or anything with `force`.
 *
 * @example
 * await assertDirTarget('./out', false); // throws ExportTargetError when ./out has files
 */
export async function assertDirTarget(dir: string, force: boolean): Promise<void> {
  const st = await stat(dir).catch(() => undefined);
  if (!st) return;
  if (!st.isDirectory()) throw new ExportTargetError(`${dir} exists and is not a directory`);
  if (!force && (await readdir(dir)).length > 0) {
    throw new ExportTargetError(`${dir} exists and is not empty (pass --force to replace it)`);
  }
}

/**
 * One file per document at `<dir>/<namespace>/<type>/<id>.json` (its canonical key), written into a
 * temporary directory that replaces `dir` at the end. Returns the count.
 *
 * @example
 * const n = await writeDirectory('./out', docs.stream({ withData: true }), false);
 */
export async function writeDirectory(
  dir: string,
  entries: AsyncIterable<DocumentListEntry>,
  force: boolean,
  onProgress?: (n: number) => void,
): Promise<number> {
  const target = resolve(dir);
  await assertDirTarget(target, force);
  await mkdir(dirname(target), { recursive: true });
  const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
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
    await rm(target, { recursive: true, force: true });
    await rename(temp, target);
    return n;
  } catch (e) {
    await rm(temp, { recursive: true, force: true });
    throw e;
  }
}
