/**
 * Putting a Parquet export in place without ever leaving the directory invalid: every new file is written beside
 * the others under a temporary name (never matching `*.parquet`), and only when all are complete are they renamed
 * to their names, then `_docdb.json` (written the same way) names the new commit, and last the files of types that
 * are gone are removed. A failure before that removes the temporary files and leaves the directory as it was; a
 * crash between the renames leaves files of the new commit under an `_docdb.json` of the old one, which the next
 * run brings up to date again (applying the same changes to a file that has them gives the same file).
 *
 * A new type's file name was free when the export started; it is put in place with `link` (which fails when the
 * name exists) so a file that appeared there meanwhile is never replaced. Only files `_docdb.json` listed are ever
 * replaced or removed.
 */
import { randomBytes } from 'node:crypto';
import { link, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExportChanged } from '../errors.js';
import { assertStillReal, isInside } from '../real-path.js';
import { META_FILE } from './file-names.js';

const TEMP_PREFIX = '.docdb-';

/**
 * Whether a directory entry is one of this export's temporary files (`.docdb-part-…`, `.docdb-spill-…`).
 *
 * @example
 * isTemporary('.docdb-spill-1a2b3c4d5e6f'); // true
 */
export const isTemporary = (name: string) => name.startsWith(TEMP_PREFIX);

/** A finished file and the name it takes; `replaces`: the name is the export's own (listed) file. */
export interface Placed {
  temp: string;
  name: string;
  replaces: boolean;
}

/**
 * The temporary files of one export run in `dir` (a real path).
 *
 * @example
 * const staging = new Staging('/srv/out', false);
 * const temp = staging.tempPath('part');
 */
export class Staging {
  private readonly temps = new Set<string>();
  private readonly closers: (() => Promise<void>)[] = [];

  constructor(
    readonly dir: string,
    /** The run created `dir`: a failure removes it again (when still empty). */
    private readonly created: boolean,
  ) {}

  /** A new temporary path in the directory (`.docdb-<what>-<random>`), removed by {@link discard}. */
  tempPath(what: 'part' | 'spill' | 'meta'): string {
    const path = join(this.dir, `${TEMP_PREFIX}${what}-${randomBytes(6).toString('hex')}`);
    this.temps.add(path);
    return path;
  }

  /** Run `close` (e.g. close a spill's file) when the run is discarded. */
  whenDiscarded(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  /** The path of `name` in the directory, checked to be inside it (names come from the data). */
  pathOf(name: string): string {
    const path = join(this.dir, name);
    if (!isInside(path, this.dir) || path === this.dir) {
      throw new Error(`${JSON.stringify(name)} would leave the export directory ${this.dir}`);
    }
    return path;
  }

  /**
   * Rename the finished `files` to their names, write `_docdb.json` as `metaText`, remove the `gone` files.
   *
   * @example
   * await staging.place([{ temp, name: 'github_repo.parquet', replaces: true }], metaText(meta), ['old_type.parquet']);
   */
  async place(files: readonly Placed[], meta: string, gone: readonly string[]): Promise<void> {
    await assertStillReal(this.dir);
    for (const f of files) {
      const target = this.pathOf(f.name);
      if (f.replaces) await rename(f.temp, target);
      else await this.linkNew(f.temp, target, f.name);
      this.temps.delete(f.temp);
    }
    const metaTemp = this.tempPath('meta');
    await writeFile(metaTemp, meta, { flag: 'wx', mode: 0o644 });
    await rename(metaTemp, join(this.dir, META_FILE));
    this.temps.delete(metaTemp);
    for (const name of gone) await unlink(this.pathOf(name)).catch(() => {});
    // A build abandoned for a whole rebuild (its recorded commit left the section) leaves unused parts.
    for (const path of this.temps) await rm(path, { force: true });
    this.temps.clear();
  }

  /** Remove every temporary file (and the directory, when this run created it and nothing else is there). */
  async discard(): Promise<void> {
    for (const close of this.closers) await close().catch(() => {});
    for (const path of this.temps) await rm(path, { force: true });
    this.temps.clear();
    if (this.created) await rmdir(this.dir).catch(() => {});
  }

  private async linkNew(temp: string, target: string, name: string): Promise<void> {
    try {
      await link(temp, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      throw new ExportChanged(
        `${target} appeared during the export and is not one of its files: it was left as it is. Run the export again.`,
        [name],
      );
    }
    await unlink(temp);
  }
}
