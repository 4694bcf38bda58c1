/**
 * The record format of the emulator's `--data-dir` journal: an append-only file of records, each
 * `u32 length | u32 CRC-32 of the payload | payload` (big-endian), the payload `u32 meta length | meta
 * JSON | body bytes`. A process killed mid-append leaves a torn last record — too short — and reading
 * stops before it: every record before it is whole, because records are only ever appended (a failed
 * append is cut back: ./journal-file.ts). A record that fails its checksum with whole records after it is
 * corruption, not a torn append, and is reported as such (`decodeRecords`' `damage`). (The same scheme as a write-ahead log: SQLite's WAL frames carry a
 * checksum for the same reason, https://www.sqlite.org/fileformat2.html#walformat.)
 */
import { crc32 } from 'node:zlib';

/** One journal record: what it is (`meta`, JSON) and, for objects, the object's bytes. */
export interface JournalRecord {
  meta: Record<string, unknown> & { k: string };
  body?: Uint8Array;
}

const HEADER = 8;
/** A record larger than this is not one this journal wrote (objects are at most 100 MB on GitHub). */
export const MAX_RECORD_BYTES = 128 * 1024 * 1024;

/**
 * The bytes of one record, ready to append.
 *
 * @example
 * appendSync(fd, encodeRecord({ meta: { k: 'ref', repo: 'o/r', name: 'refs/heads/main', sha } }));
 */
export function encodeRecord(record: JournalRecord): Uint8Array {
  const meta = new TextEncoder().encode(JSON.stringify(record.meta));
  const body = record.body ?? new Uint8Array(0);
  const out = new Uint8Array(HEADER + 4 + meta.length + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(HEADER, meta.length);
  out.set(meta, HEADER + 4);
  out.set(body, HEADER + 4 + meta.length);
  const payload = out.subarray(HEADER);
  view.setUint32(0, payload.length);
  view.setUint32(4, crc32(payload));
  return out;
}

/**
 * Why reading stopped before the end of the bytes: a torn last record (an append cut short — dropped), or a
 * corrupt one (a whole record that fails its checksum, or any bad record with whole records after it —
 * never dropped silently: the records after it were acknowledged).
 */
export interface JournalDamage {
  kind: 'torn' | 'corrupt';
  /** Byte offset of the bad record (= `whole`). */
  offset: number;
  /** Its number, counting the file's records from 1 (the records before it are whole). */
  record: number;
  /** What is wrong with it, in words. */
  why: string;
}

/**
 * The whole records at the start of `bytes`, where they end (`whole`), and when that is not the end of
 * `bytes`, what stopped the reading (`damage`). Only an incomplete last record — one that runs past the
 * end of the bytes, with no whole record anywhere after its start — is `torn`; everything else is
 * `corrupt` (a bit flip in the middle of the journal, or a half record that later records were appended
 * after).
 *
 * @example
 * const { records, whole, damage } = decodeRecords(readFileSync(file));
 */
export function decodeRecords(bytes: Uint8Array): { records: JournalRecord[]; whole: number; damage?: JournalDamage } {
  const records: JournalRecord[] = [];
  let at = 0;
  for (;;) {
    if (at === bytes.length) return { records, whole: at };
    const read = readRecord(bytes, at);
    if (!('record' in read)) {
      const torn = read.incomplete && nextWholeRecord(bytes, at + 1) === undefined;
      const damage: JournalDamage = {
        kind: torn ? 'torn' : 'corrupt',
        offset: at,
        record: records.length + 1,
        why: read.why,
      };
      return { records, whole: at, damage };
    }
    records.push(read.record);
    at = read.end;
  }
}

type Read = { record: JournalRecord; end: number } | { incomplete: boolean; why: string };

/** The record at `at`, or why there is none (`incomplete`: it runs past the end of `bytes`). */
function readRecord(bytes: Uint8Array, at: number): Read {
  if (at + HEADER > bytes.length)
    return { incomplete: true, why: `only ${bytes.length - at} bytes of its 8-byte header` };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(at);
  if (length < 4 || length > MAX_RECORD_BYTES) return { incomplete: false, why: `an impossible length (${length})` };
  if (at + HEADER + length > bytes.length) {
    return { incomplete: true, why: `it says ${length} bytes, ${bytes.length - at - HEADER} follow its header` };
  }
  const payload = bytes.subarray(at + HEADER, at + HEADER + length);
  if (crc32(payload) !== view.getUint32(at + 4)) return { incomplete: false, why: 'its CRC-32 does not match' };
  const record = parsePayload(payload);
  if (!record) return { incomplete: false, why: 'its checksum matches but its metadata does not parse' };
  return { record, end: at + HEADER + length };
}

/** `{"k":"` — how every record's metadata starts (JSON.stringify of an object whose first key is k). */
const META_START = new TextEncoder().encode('{"k":"');

/**
 * Where the first whole, valid record at or after `from` starts, if any. A cheap check of the metadata's
 * first bytes comes before the checksum, so scanning a torn tail costs about one pass over it.
 */
export function nextWholeRecord(bytes: Uint8Array, from: number): number | undefined {
  const metaAt = HEADER + 4;
  for (let at = from; at + metaAt + META_START.length <= bytes.length; at++) {
    if (!META_START.every((b, i) => bytes[at + metaAt + i] === b)) continue;
    if ('record' in readRecord(bytes, at)) return at;
  }
  return undefined;
}

function parsePayload(payload: Uint8Array): JournalRecord | undefined {
  const metaLength = new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint32(0);
  if (4 + metaLength > payload.length) return undefined;
  try {
    const meta = JSON.parse(new TextDecoder().decode(payload.subarray(4, 4 + metaLength))) as JournalRecord['meta'];
    if (typeof meta !== 'object' || meta === null || typeof meta.k !== 'string') return undefined;
    return { meta, body: payload.slice(4 + metaLength) };
  } catch {
    return undefined;
  }
}
