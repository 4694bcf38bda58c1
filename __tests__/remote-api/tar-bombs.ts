/**
 * Hostile and honest tar.gz bodies, generated lazily (issue 27): a bomb is produced only as fast as the
 * reader pulls it, so a reader that stops early leaves the rest ungenerated, and a gigabyte of tar never
 * sits in the test's memory. Headers are real ustar headers with valid checksums unless asked otherwise;
 * gzip is node:zlib's, one member per batch, made on demand.
 */

import { gzipSync } from 'node:zlib';

const enc = new TextEncoder();
const BLOCK = 512;

/** Fields of one ustar header. */
export interface HeaderFields {
  name: string;
  /** Type flag: '0' file, '5' directory, '2' symlink, 'x' pax, 'g' global pax, 'L' GNU long name. */
  type?: string;
  size?: number;
  mode?: number;
  linkname?: string;
  /** Corrupt the checksum (one added to it). */
  badChecksum?: boolean;
  /** The ustar prefix (a path of up to 255 bytes without a pax record: `prefix/name`). */
  prefix?: string;
}

/**
 * One 512-byte ustar header.
 *
 * @example
 * const h = tarHeader({ name: 'o-r-abcdef0/', type: '5' });
 */
export function tarHeader(f: HeaderFields): Uint8Array {
  const b = new Uint8Array(BLOCK);
  const put = (at: number, len: number, text: string) => b.set(enc.encode(text).subarray(0, len), at);
  const num = (at: number, len: number, n: number) => put(at, len, `${n.toString(8).padStart(len - 1, '0')}\0`);
  put(0, 100, f.name);
  num(100, 8, f.mode ?? 0o644);
  num(108, 8, 0);
  num(116, 8, 0);
  num(124, 12, f.size ?? 0);
  num(136, 12, 0);
  b.fill(0x20, 148, 156);
  put(156, 1, f.type ?? '0');
  put(157, 100, f.linkname ?? '');
  put(257, 8, 'ustar\u000000');
  if (f.prefix) put(345, 155, f.prefix);
  let sum = 0;
  for (const x of b) sum += x;
  num(148, 7, sum + (f.badChecksum ? 1 : 0));
  return b;
}

/** Zeros that pad `n` bytes of content to whole blocks. */
export function padding(n: number): Uint8Array {
  return new Uint8Array((BLOCK - (n % BLOCK)) % BLOCK);
}

/** A pax record `"<len> key=value\n"` (the length counts itself). */
export function paxRecord(key: string, value: string): Uint8Array {
  const rest = ` ${key}=${value}\n`;
  const restBytes = enc.encode(rest).length;
  let len = restBytes + String(restBytes).length;
  if (String(len).length !== String(restBytes).length) len++;
  return enc.encode(`${len}${rest}`);
}

/** A file entry: header, content, padding. */
export function* fileEntry(name: string, content: Uint8Array, mode = 0o644): Generator<Uint8Array> {
  yield tarHeader({ name, size: content.length, mode });
  yield content;
  yield padding(content.length);
}

/** The two zero blocks that end a tar. */
export const END = new Uint8Array(2 * BLOCK);

/**
 * A gzip'd stream of `chunks`, produced as the reader pulls it; `stats.tarBytes` says how much tar was
 * generated (a reader that stops early leaves it small).
 *
 * @example
 * const body = gzipStream(manyEntries(top, 2_000_000));
 */
export function gzipStream(
  chunks: Iterable<Uint8Array>,
  stats: { tarBytes: number } = { tarBytes: 0 },
): ReadableStream<Uint8Array> {
  const it = chunks[Symbol.iterator]();
  const BATCH = 256 * 1024;
  // Pull-based with no buffer of its own: nothing is generated before the reader asks for it. Each batch
  // is one gzip member (RFC 1952 allows many in a row; gunzip reads them as one stream).
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const batch: Uint8Array[] = [];
        let n = 0;
        while (n < BATCH) {
          const r = it.next();
          if (r.done) break;
          batch.push(r.value);
          n += r.value.length;
        }
        stats.tarBytes += n;
        if (n > 0) controller.enqueue(new Uint8Array(gzipSync(Buffer.concat(batch, n), { level: 1 })));
        if (n < BATCH) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Every chunk gzip'd into one buffer (small inputs only). */
export async function gzipAll(chunks: Iterable<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(gzipStream(chunks)).arrayBuffer());
}

/**
 * The first bomb: `count` empty entries, each named by a pax `path` of `pathBytes` bytes (4.75 MB
 * of gzip for 600 × 8 MB). The long value is produced 1 MiB at a time.
 */
export function* paxPathBomb(top: string, count: number, pathBytes: number): Generator<Uint8Array> {
  yield tarHeader({ name: top, type: '5', mode: 0o775 });
  const piece = new Uint8Array(1024 * 1024).fill(0x61);
  for (let i = 0; i < count; i++) {
    const valueBytes = pathBytes - top.length;
    const rest = ' path='.length + top.length + valueBytes + 1;
    let body = rest + String(rest).length;
    if (String(body).length !== String(rest).length) body++;
    yield tarHeader({ name: 'PaxHeader', type: 'x', size: body });
    yield enc.encode(`${body} path=${top}`);
    for (let left = valueBytes; left > 0; left -= piece.length) yield piece.subarray(0, Math.min(left, piece.length));
    yield enc.encode('\n');
    yield padding(body);
    yield tarHeader({ name: `${top}x${i}` });
  }
  yield END;
}

/** The second bomb: a top directory and `count` empty files (2 million: 4.5 MB of gzip). */
export function* manyEntries(top: string, count: number): Generator<Uint8Array> {
  yield tarHeader({ name: top, type: '5', mode: 0o775 });
  for (let i = 0; i < count; i++) yield tarHeader({ name: `${top}e/${i}.json` });
  yield END;
}

/**
 * Empty files under deep paths no directory entry announces: `top/<i>/a/a/…/a/x`, 255 bytes each (the
 * ustar prefix and name, no pax record) — each implies about 115 directories the reader must hold.
 */
export function* deepPaths(top: string, count: number): Generator<Uint8Array> {
  yield tarHeader({ name: top, type: '5', mode: 0o775 });
  for (let i = 0; i < count; i++) {
    const head = `${top}${i}`;
    const prefix = `${head}${'/a'.repeat(Math.floor((155 - head.length) / 2))}`;
    yield tarHeader({ prefix, name: `${'a/'.repeat(49)}x` });
  }
  yield END;
}

/**
 * A gzip bomb under valid paths: `files` files of `fileBytes` zeros, each made distinct by its last
 * bytes (so no two share a blob), ~1000:1 compressed.
 */
export function* zeroFiles(top: string, files: number, fileBytes: number): Generator<Uint8Array> {
  yield tarHeader({ name: top, type: '5', mode: 0o775 });
  for (let i = 0; i < files; i++) {
    const content = new Uint8Array(fileBytes);
    new DataView(content.buffer).setUint32(fileBytes - 4, i);
    yield* fileEntry(`${top}z/${i}.bin`, content);
  }
  yield END;
}
