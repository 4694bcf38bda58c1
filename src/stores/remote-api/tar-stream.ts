/**
 * A streaming, bounded reader of an untrusted tar (the section archive, issue 27). It understands what
 * `git archive` writes for GitHub — 512-byte ustar headers with their checksum, pax extended headers (`x`,
 * and the global `g` that carries the commit id) and GNU long names (`L`/`K`) — and hands each file,
 * directory and symlink to `onEntry` as soon as it is read, so a bad path stops the read at once and
 * nothing but what `onEntry` keeps stays in memory. Formats: POSIX.1-2001 pax
 * (https://pubs.opengroup.org/onlinepubs/9699919799/utilities/pax.html#tag_20_92_13), GNU tar
 * (https://www.gnu.org/software/tar/manual/html_node/Standard.html).
 *
 * Every byte of the tar — headers, metadata records, names, contents, padding — counts against
 * `maxBytes`, every entry against `maxEntries`, and every size is checked BEFORE its bytes are read:
 * a metadata record over {@link MAX_META_BYTES}, a path over {@link MAX_ARCHIVE_PATH_BYTES} (the top
 * directory and the longest key) or a link over {@link MAX_LINK_BYTES} is refused without reading it.
 */
import { InvalidResponse } from '../../core/errors.js';
import { MAX_KEY_BYTES } from '../../core/keys.js';

/** One entry handed over by the reader (paths as in the tar). */
export interface TarEntry {
  path: string;
  type: 'file' | 'symlink' | 'directory';
  /** Unix permission bits from the header. */
  mode: number;
  /** File content (empty for directories and symlinks). */
  bytes: Uint8Array;
  /** Symlink target. */
  linkname?: string;
}

/** The caps a tar is read within. */
export interface TarLimits {
  /** Bytes of the uncompressed tar in all: headers, metadata, contents and padding. */
  maxBytes: number;
  /** Files, directories and symlinks. */
  maxEntries: number;
  /** Bytes of one file. */
  maxEntryBytes: number;
}

/**
 * The top directory GitHub gives an archive is `<owner>-<repo>-<short sha>/`: at most 39 + 1 + 100 + 1 +
 * 7 + 1 = 149 bytes (GitHub's owner and repository name limits). With the longest key and a directory's
 * trailing slash, no honest path is longer than this.
 */
export const MAX_ARCHIVE_PATH_BYTES = 160 + MAX_KEY_BYTES;
/** A symlink's target: Linux's PATH_MAX. A section's keys are never links; git only stores them. */
export const MAX_LINK_BYTES = 4096;
/** One pax or GNU metadata record: a path, a link, and the few numbers git writes fit many times over. */
export const MAX_META_BYTES = 16 * 1024;

const BLOCK = 512;
const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** The limit an over-limit archive hit: the bulk reader falls back to batched reads on these two. */
export type ArchiveLimitName = 'maxBytes' | 'maxEntries';

/**
 * True when `e` says the archive is larger than the caps (an honest big section looks the same): not
 * malformed, just too large for the archive path.
 *
 * @example
 * if (isArchiveOverLimit(e)) return fallBackToBatches();
 */
export function isArchiveOverLimit(e: unknown): e is InvalidResponse {
  const limit = e instanceof InvalidResponse ? (e.data as { limit?: unknown }).limit : undefined;
  return limit === 'maxBytes' || limit === 'maxEntries';
}

/** Bytes pulled from a stream on demand, and how many were consumed. */
class ByteQueue {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  consumed = 0;
  constructor(private readonly next: () => Promise<Uint8Array | undefined>) {}

  /** Exactly `n` bytes, or undefined when the stream ends first (after `got` of them). */
  async take(n: number): Promise<Uint8Array | undefined> {
    while (this.buffered < n) {
      const chunk = await this.next();
      if (chunk === undefined) return undefined;
      if (chunk.length === 0) continue;
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const head = this.chunks[0] as Uint8Array;
      const part = Math.min(head.length, n - at);
      out.set(head.subarray(0, part), at);
      at += part;
      if (part === head.length) this.chunks.shift();
      else this.chunks[0] = head.subarray(part);
    }
    this.buffered -= n;
    this.consumed += n;
    return out;
  }
}

/** Metadata that applies to the next entry (pax `x`, GNU `L`/`K`). */
interface Pending {
  path?: string;
  linkname?: string;
  size?: number;
}

/**
 * Read a tar from `next` (which yields its uncompressed chunks, undefined at the end), calling `onEntry`
 * for each file, directory and symlink. Throws `InvalidResponse` naming what was wrong; an archive over
 * `maxBytes` or `maxEntries` carries `data.limit` (see {@link isArchiveOverLimit}).
 *
 * @example
 * await readTar(() => reader.read().then((r) => r.value), limits, (e) => section.add(e));
 */
export async function readTar(
  next: () => Promise<Uint8Array | undefined>,
  limits: TarLimits,
  onEntry: (entry: TarEntry) => void,
): Promise<{ bytes: number; entries: number }> {
  const q = new ByteQueue(next);
  let entries = 0;
  let pending: Pending = {};
  for (;;) {
    const header = await takeCounted(q, BLOCK, limits, 'a header');
    if (header.every((b) => b === 0)) return { bytes: q.consumed, entries };
    const h = parseHeader(header);
    if (h.type === 'x' || h.type === 'g' || h.type === 'L' || h.type === 'K') {
      const body = await takeMeta(q, h.size, limits, h.type);
      if (h.type === 'x') pending = { ...pending, ...paxRecords(body) };
      else if (h.type === 'L') pending.path = cString(body, 0, body.length, 'GNU long name');
      else if (h.type === 'K') pending.linkname = cString(body, 0, body.length, 'GNU long link');
      continue; // 'g' (git's commit id): counted, read, not used
    }
    const entry = { ...h, ...pending };
    pending = {};
    if (++entries > limits.maxEntries) throw overLimit('maxEntries', limits.maxEntries, 'entries');
    onEntry(await readEntry(q, entry, limits));
  }
}

/** The entry's content read (after its sizes and names are checked), as `onEntry` receives it. */
async function readEntry(
  q: ByteQueue,
  e: { path: string; type: string; mode: number; size: number; linkname?: string },
  limits: TarLimits,
): Promise<TarEntry> {
  if (e.type !== 'file' && e.type !== 'directory' && e.type !== 'symlink') {
    throw invalid(`entry ${quote(e.path)} is a ${e.type}; only files, directories and symlinks are read`);
  }
  checkName(e.path, MAX_ARCHIVE_PATH_BYTES, 'path', e.path);
  if (e.linkname !== undefined) checkName(e.linkname, MAX_LINK_BYTES, 'link', e.path);
  const size = e.type === 'file' ? e.size : 0;
  if (size > limits.maxEntryBytes) {
    throw invalid(`entry ${quote(e.path)} is larger than ${limits.maxEntryBytes} bytes (maxEntryBytes)`, {
      limit: 'maxEntryBytes',
    });
  }
  // A directory or link that declares content: its blocks are skipped as tar readers do, still counted.
  const bytes = await takeCounted(q, padded(e.size), limits, `entry ${quote(e.path)}`);
  return {
    path: e.path,
    type: e.type,
    mode: e.mode,
    bytes: bytes.subarray(0, size),
    ...(e.type === 'symlink' ? { linkname: e.linkname ?? '' } : {}),
  };
}

/** `n` bytes counted against maxBytes before they are read; the end of the stream here is a truncation. */
async function takeCounted(q: ByteQueue, n: number, limits: TarLimits, what: string): Promise<Uint8Array> {
  if (q.consumed + n > limits.maxBytes) throw overLimit('maxBytes', limits.maxBytes, 'bytes');
  const got = await q.take(n);
  if (!got) throw invalid(`the tar ends inside ${what} (truncated)`);
  return got;
}

/** A metadata record's body, refused before reading when it is over {@link MAX_META_BYTES}. */
async function takeMeta(q: ByteQueue, size: number, limits: TarLimits, type: string): Promise<Uint8Array> {
  if (size > MAX_META_BYTES) {
    throw invalid(`a '${type}' metadata record of ${size} bytes is over the limit of ${MAX_META_BYTES} bytes`, {
      limit: 'metadata',
    });
  }
  const block = await takeCounted(q, padded(size), limits, `a '${type}' metadata record`);
  return block.subarray(0, size);
}

/** A name's UTF-8 length (names are at most {@link MAX_META_BYTES} long here: the record was capped). */
function checkName(name: string, max: number, what: string, path: string): void {
  const length = encoder.encode(name).length;
  if (length > max) {
    throw invalid(`entry ${quote(path)} has a ${what} of ${length} bytes; at most ${max} are allowed`, {
      limit: what,
    });
  }
}

/** A ustar header: checksum, magic, name (with prefix), mode, size, type, link (POSIX ustar). */
function parseHeader(b: Uint8Array): { path: string; type: string; mode: number; size: number; linkname?: string } {
  const stored = octal(b, 148, 8, 'checksum');
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (b[i] as number);
  if (stored !== sum) throw invalid(`a header's checksum is ${stored}, its bytes sum to ${sum} (corrupt tar)`);
  const magic = String.fromCharCode(...b.subarray(257, 263));
  if (magic !== 'ustar\0' && magic !== 'ustar ') throw invalid('a header without the ustar magic (not a ustar tar)');
  const name = cString(b, 0, 100, 'name');
  // The ustar prefix (345..500); GNU's header keeps other fields there.
  const prefix = magic === 'ustar\0' ? cString(b, 345, 155, 'prefix') : '';
  const link = cString(b, 157, 100, 'link name');
  return {
    path: prefix ? `${prefix}/${name}` : name,
    type: typeName(String.fromCharCode(b[156] as number)),
    mode: octal(b, 100, 8, 'mode') & 0o7777,
    size: size(b),
    ...(link ? { linkname: link } : {}),
  };
}

function typeName(flag: string): string {
  const names: Record<string, string> = {
    '0': 'file',
    '\0': 'file',
    '7': 'file',
    '5': 'directory',
    '2': 'symlink',
    '1': 'hard link',
    '3': 'character device',
    '4': 'block device',
    '6': 'fifo',
  };
  return names[flag] ?? (/^[xgLK]$/.test(flag) ? flag : `type ${JSON.stringify(flag)}`);
}

/** The size field: octal, or GNU's base-256 (high bit set) for sizes of 8 GiB and more. */
function size(b: Uint8Array): number {
  if (((b[124] as number) & 0x80) === 0) return octal(b, 124, 12, 'size');
  let n = (b[124] as number) & 0x7f;
  for (let i = 125; i < 136; i++) n = n * 256 + (b[i] as number);
  return n;
}

function octal(b: Uint8Array, at: number, len: number, field: string): number {
  const text = String.fromCharCode(...b.subarray(at, at + len))
    .replace(/\0.*$/s, '')
    .trim();
  if (!/^[0-7]*$/.test(text)) throw invalid(`a header's ${field} field is not an octal number`);
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function cString(b: Uint8Array, at: number, len: number, field: string): string {
  const field_ = b.subarray(at, at + len);
  const end = field_.indexOf(0);
  try {
    return decoder.decode(end < 0 ? field_ : field_.subarray(0, end));
  } catch {
    throw invalid(`a ${field} is not UTF-8`);
  }
}

/** Pax records `"<len> <key>=<value>\n"`: the path, link and size they override. */
function paxRecords(body: Uint8Array): Pending {
  const out: Pending = {};
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    // The length is a few digits; a far-off space (or none) is a malformed record, never a huge spread.
    const len = space < 0 || space - at > 20 ? Number.NaN : Number(String.fromCharCode(...body.subarray(at, space)));
    if (!Number.isSafeInteger(len) || len <= space - at || at + len > body.length || body[at + len - 1] !== 0x0a) {
      throw invalid('a pax record is malformed');
    }
    const record = cString(body, space + 1, at + len - 1 - (space + 1), 'pax record');
    const eq = record.indexOf('=');
    if (eq < 0) throw invalid('a pax record is malformed');
    const [key, value] = [record.slice(0, eq), record.slice(eq + 1)];
    if (key === 'path') out.path = value;
    else if (key === 'linkpath') out.linkname = value;
    else if (key === 'size') {
      if (!/^\d+$/.test(value)) throw invalid('a pax size is not a number');
      out.size = Number(value);
    }
    at += len;
  }
  return out;
}

function padded(n: number): number {
  return Math.ceil(n / BLOCK) * BLOCK;
}

function quote(path: string): string {
  return JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
}

function overLimit(limit: ArchiveLimitName, max: number, unit: string): InvalidResponse {
  return invalid(`the archive holds more than ${max} ${unit} (${limit})`, { limit, allowed: max });
}

function invalid(what: string, data: Record<string, unknown> = {}): InvalidResponse {
  return new InvalidResponse(`readMany: read archive returned an unexpected answer: ${what}`, {
    operation: 'readMany',
    step: 'read archive',
    ...data,
  });
}
