/**
 * The open journal file of a `--data-dir`: appends whole records or nothing. An append that fails part-way
 * (ENOSPC, EIO after half a record) is cut back to where it began (`ftruncate` + fsync) and the request
 * that caused it fails with a 500; the half record never stays in the file, so what is appended later
 * still follows a whole record. When the file cannot be cut back (or an fsync fails, so what is on disk is
 * unknown), the journal stops: every later append is refused (the emulator answers writes 503) and
 * `stopped` says why.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { ApiError } from '../http.js';
import { encodeRecord, type JournalRecord } from './journal.js';

/**
 * The file operations the journal uses: node:fs by default; tests pass one that fails a write after N
 * bytes (the fault-injection seam for ENOSPC/EIO).
 */
export interface JournalFs {
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  ftruncateSync(fd: number, length: number): void;
  fsyncSync(fd: number): void;
}

export const NODE_JOURNAL_FS: JournalFs = { writeSync, ftruncateSync, fsyncSync };

/** An appender over one open journal file. */
export interface JournalFile {
  /** Append `records` whole, or none of them (throws ApiError 500, or 503 once stopped). */
  append(records: Iterable<JournalRecord>): void;
  /** fsync what was appended since the last sync; a failed fsync stops the journal (and throws a 500). */
  sync(): void;
  /** Why the journal takes no more writes, once it has stopped. */
  readonly stopped: string | undefined;
  close(): void;
}

/**
 * Open `file` for appending through `fs`.
 *
 * @example
 * const journal = openJournalFile('/data/journal.docdb');
 * journal.append([{ meta: { k: 'seed', key } }]);
 * journal.sync();
 */
export function openJournalFile(
  file: string,
  fs: JournalFs = NODE_JOURNAL_FS,
  log: (line: string) => void = (line) => console.error(line),
): JournalFile {
  const fd = openSync(file, 'a');
  let size = fstatSync(fd).size;
  let dirty = false;
  let stopped: string | undefined;
  const stop = (why: string): ApiError => {
    stopped = `the journal ${file} ${why}; this emulator answers every write 503 from now on (reads are served) — restart it once the disk is fixed`;
    log(`[emulator] ${stopped}`);
    return unavailable(stopped);
  };
  /** Undo a failed append: the file back to `start` bytes, on disk. */
  const cutBack = (start: number, cause: unknown): ApiError => {
    try {
      fs.ftruncateSync(fd, start);
      fs.fsyncSync(fd);
      size = start;
    } catch (e) {
      return stop(
        `could not be cut back to its last whole record at byte ${start} after a failed append (${errorCode(cause)}): ${errorCode(e)}`,
      );
    }
    log(
      `[emulator] a journal append failed (${errorCode(cause)}); cut ${file} back to its last whole record, the write answered 500`,
    );
    return new ApiError(
      500,
      `Server Error: the emulator could not journal this write (${errorCode(cause)}); nothing of it was kept`,
    );
  };
  return {
    get stopped() {
      return stopped;
    },
    append(records) {
      if (stopped) throw unavailable(stopped);
      const start = size;
      try {
        for (const record of records) {
          const bytes = encodeRecord(record);
          for (let at = 0; at < bytes.length; ) {
            const n = fs.writeSync(fd, bytes, at, bytes.length - at);
            at += n;
            size += n;
          }
          dirty = true;
        }
      } catch (e) {
        throw cutBack(start, e);
      }
    },
    sync() {
      if (!dirty || stopped) return;
      try {
        fs.fsyncSync(fd);
        dirty = false;
      } catch (e) {
        stop(`could not be fsync'd (${errorCode(e)}), so what it holds on disk is unknown`);
        throw new ApiError(500, `Server Error: the emulator could not make this write durable (${errorCode(e)})`);
      }
    },
    close() {
      closeSync(fd);
    },
  };
}

function unavailable(why: string): ApiError {
  return new ApiError(503, `Service Unavailable: ${why}`);
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? (e instanceof Error ? e.message : String(e));
}
