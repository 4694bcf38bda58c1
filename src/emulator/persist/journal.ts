/**
 * The record format of the emulator's `--data-dir` journal: an append-only file of records, each
 * `u32 length | u32 CRC-32 of the payload | payload` (big-endian), the payload `u32 meta length | meta
 * JSON | body bytes`. A process killed mid-append leaves a torn last record — too short, or with a
 * checksum that does not match — and reading stops before it: every record before it is whole, because
 * records are only ever appended. (The same scheme as a write-ahead log: SQLite's WAL frames carry a
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
 * The whole records at the start of `bytes`, and where they end (`whole`): a torn or corrupt record and
 * everything after it are not returned (`whole` < `bytes.length` then).
 *
 * @example
 * const { records, whole } = decodeRecords(readFileSync(file));
 */
export function decodeRecords(bytes: Uint8Array): { records: JournalRecord[]; whole: number } {
  const records: JournalRecord[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at + HEADER <= bytes.length) {
    const length = view.getUint32(at);
    if (length < 4 || length > MAX_RECORD_BYTES || at + HEADER + length > bytes.length) break;
    const payload = bytes.subarray(at + HEADER, at + HEADER + length);
    if (crc32(payload) !== view.getUint32(at + 4)) break;
    const record = parsePayload(payload);
    if (!record) break;
    records.push(record);
    at += HEADER + length;
  }
  return { records, whole: at };
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
