/**
 * Hostile packs, built byte by byte (https://git-scm.com/docs/pack-format), and a loopback server that
 * speaks just enough git protocol v2 over smart HTTP to hand one of them to a GitHttpRefStore: a
 * capability advertisement, an `ls-refs` naming a tip, and a `fetch` answered with the pack.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDeflate, deflateSync } from 'node:zlib';

export const BLOB = 3;
export const OFS_DELTA = 6;
export const REF_DELTA = 7;

/** An object header: 3-bit type and the size as a little-endian base-128 varint (sizes past 2^32 too). */
export function objectHeader(type: number, size: number): Uint8Array {
  const bytes: number[] = [];
  let c = (type << 4) | (size % 16);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(c | 0x80);
    c = rest % 128;
    rest = Math.floor(rest / 128);
  }
  bytes.push(c);
  return Uint8Array.from(bytes);
}

/** The ofs-delta distance back to the base (big-endian, +1 per continuation byte, as git writes it). */
export function ofsDistance(back: number): Uint8Array {
  const bytes = [back & 0x7f];
  let n = back >> 7;
  while (n > 0) {
    n -= 1;
    bytes.unshift(0x80 | (n & 0x7f));
    n >>= 7;
  }
  return Uint8Array.from(bytes);
}

/** A delta-header varint (base or result size). */
export function sizeVarint(n: number): number[] {
  const out: number[] = [];
  let rest = n;
  do {
    const b = rest % 128;
    rest = Math.floor(rest / 128);
    out.push(rest > 0 ? b | 0x80 : b);
  } while (rest > 0);
  return out;
}

/** `count` objects (already encoded: header + zlib stream each) as a pack with its SHA-1 trailer. */
export function packOf(entries: readonly Uint8Array[], count = entries.length): Buffer {
  const head = Buffer.alloc(12);
  head.write('PACK', 0, 'latin1');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(count, 8);
  const body = Buffer.concat([head, ...entries]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** A whole (non-delta) entry of `type` declaring `size` bytes, followed by `stream`. */
export function entry(type: number, size: number, stream: Uint8Array): Buffer {
  return Buffer.concat([objectHeader(type, size), stream]);
}

/** zlib of `bytes` zeros, deflated in 1 MiB steps so no gigabyte is ever held (about bytes / 1030). */
export async function zeros(bytes: number): Promise<Buffer> {
  const z = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  z.on('data', (d: Buffer) => out.push(d));
  const done = new Promise((resolve, reject) => z.on('end', resolve).on('error', reject));
  const chunk = Buffer.alloc(1 << 20);
  for (let left = bytes; left > 0; left -= chunk.length) {
    const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
    if (!z.write(part)) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return Buffer.concat(out);
}

/** A blob entry with its honest zlib stream. */
export function blob(body: Uint8Array | string): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
  return entry(BLOB, b.length, deflateSync(b));
}

/** An ofs-delta `back` bytes after its base, whose delta header claims `baseSize` → `resultSize`. */
export function ofsDelta(back: number, baseSize: number, resultSize: number, ops: number[] = []): Buffer {
  const delta = Uint8Array.from([...sizeVarint(baseSize), ...sizeVarint(resultSize), ...ops]);
  return Buffer.concat([objectHeader(OFS_DELTA, delta.length), ofsDistance(back), deflateSync(delta)]);
}

/** A ref-delta naming `base` (40 hex) whose delta header claims `baseSize` → `resultSize`. */
export function refDelta(base: string, baseSize: number, resultSize: number): Buffer {
  const delta = Uint8Array.from([...sizeVarint(baseSize), ...sizeVarint(resultSize)]);
  return Buffer.concat([objectHeader(REF_DELTA, delta.length), Buffer.from(base, 'hex'), deflateSync(delta)]);
}

/** One pkt-line: 4 hex digits of length (counting them) and the payload. */
function pkt(payload: string | Uint8Array): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
}

/** The fetch reply: a `packfile` section carrying `pack` on side band 1, then a flush. */
function fetchReply(pack: Uint8Array): Buffer {
  const parts = [pkt('packfile\n')];
  for (let i = 0; i < pack.length; i += 65515) {
    parts.push(pkt(Buffer.concat([Buffer.from([1]), pack.subarray(i, i + 65515)])));
  }
  return Buffer.concat([...parts, Buffer.from('0000')]);
}

/** A section tip the fake server names (the store asks for it; the pack never holds it). */
export const FAKE_TIP = 'c0ffee0000000000000000000000000000000001';

/**
 * A loopback server for one repository `/o/r.git` whose section `refs/docdb/documents` is at
 * `FAKE_TIP` and whose every fetch is answered with `pack`.
 *
 * @example
 * const srv = await servePack(pack); new GitHttpRefStore({ remote: srv.remote }); … await srv.close();
 */
export async function servePack(pack: Uint8Array): Promise<{ remote: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET') {
        const ad = [pkt('version 2\n'), pkt('ls-refs\n'), pkt('fetch=shallow\n'), Buffer.from('0000')];
        res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-advertisement' }).end(Buffer.concat(ad));
        return;
      }
      const body = Buffer.concat(chunks).toString('latin1');
      const reply = body.includes('command=ls-refs')
        ? Buffer.concat([pkt(`${FAKE_TIP} refs/docdb/documents\n`), Buffer.from('0000')])
        : fetchReply(pack);
      res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-result' }).end(reply);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    remote: `http://127.0.0.1:${port}/o/r.git`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
