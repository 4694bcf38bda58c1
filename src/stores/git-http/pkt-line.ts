/**
 * git's pkt-line framing (https://git-scm.com/docs/protocol-common#_pkt_line_format): each packet is
 * a 4-hex-digit length (counting those 4 bytes) and a payload; `0000` is a flush, `0001` a delimiter
 * (protocol v2), `0002` a response end. Side-band (https://git-scm.com/docs/protocol-capabilities):
 * band 1 carries data (the pack), 2 progress, 3 a fatal error message.
 * Everything read here comes from the server: lengths are checked, never trusted, and the server's words
 * (band 3, and band 2 once split into lines) are made inert before they reach an error a terminal shows.
 */
import { concatBytes, utf8 } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { inertText } from '../../core/terminal-text.js';

/** Largest packet git sends or accepts (LARGE_PACKET_MAX), length prefix included. */
export const MAX_PKT_LENGTH = 65520;

export const FLUSH = utf8('0000');
export const DELIM = utf8('0001');

/** A decoded packet: its payload, or a special packet. */
export type Packet = Uint8Array | 'flush' | 'delim' | 'end';

/**
 * One data packet for `payload` (text is UTF-8 encoded as given, newline included by the caller).
 *
 * @example
 * pktLine('command=ls-refs\n'); // bytes of "0014command=ls-refs\n"
 */
export function pktLine(payload: string | Uint8Array): Uint8Array {
  const body = typeof payload === 'string' ? utf8(payload) : payload;
  const length = body.length + 4;
  if (length > MAX_PKT_LENGTH) throw new RangeError(`pkt-line payload of ${body.length} bytes is too long`);
  return concatBytes([utf8(length.toString(16).padStart(4, '0')), body]);
}

/** Lines of text as packets, each ending in a newline. */
export function pktLines(lines: readonly string[]): Uint8Array[] {
  return lines.map((l) => pktLine(`${l}\n`));
}

const HEX = /^[0-9a-f]{4}$/;

/**
 * Split a response body into packets, starting at `offset`; stops at the end of the body. A length
 * that is not 4 hex digits, is 3, or runs past the body is `InvalidResponse` (`what` names the reply).
 *
 * @example
 * const packets = readPackets(body, 'ls-refs reply');
 */
export function readPackets(body: Uint8Array, what: string, offset = 0): Packet[] {
  const out: Packet[] = [];
  let i = offset;
  while (i < body.length) {
    const head = String.fromCharCode(...body.subarray(i, i + 4));
    if (!HEX.test(head)) throw malformed(what, `bad packet length ${JSON.stringify(head)} at byte ${i}`);
    const length = Number.parseInt(head, 16);
    if (length === 0) out.push('flush');
    else if (length === 1) out.push('delim');
    else if (length === 2) out.push('end');
    else if (length < 4 || i + length > body.length) {
      throw malformed(what, `packet of length ${length} at byte ${i} does not fit the ${body.length}-byte reply`);
    } else out.push(body.subarray(i + 4, i + length));
    i += Math.max(length, 4);
  }
  return out;
}

/** A data packet's payload as text without its trailing newline (null for special packets). */
export function packetText(p: Packet): string | null {
  if (typeof p === 'string') return null;
  const end = p.length > 0 && p[p.length - 1] === 0x0a ? p.length - 1 : p.length;
  return new TextDecoder().decode(p.subarray(0, end));
}

/** Most bytes of band-2 text kept for a message (a hook may print a lot; the gist comes first). */
const MAX_MESSAGE_BYTES = 4096;

/**
 * Join the side-band data (band 1) of `packets`; a band-3 packet is the server's fatal error
 * (`InvalidResponse` carrying its text). Band 2 carries progress and the server's messages (a hook's
 * output, say why a push was refused): kept in `messages` when given (first 4 KiB), else dropped.
 *
 * @example
 * const pack = sideBandData(packets.slice(i + 1), 'fetch reply');
 */
export function sideBandData(packets: readonly Packet[], what: string, messages?: string[]): Uint8Array {
  const data: Uint8Array[] = [];
  let kept = 0;
  for (const p of packets) {
    if (typeof p === 'string') break;
    const band = p[0];
    if (band === 1) data.push(p.subarray(1));
    else if (band === 3)
      throw malformed(what, `the server reported an error: ${inertText(packetText(p.subarray(1)) ?? '')}`);
    else if (band !== 2) throw malformed(what, `unknown side-band channel ${band}`);
    else if (messages && kept < MAX_MESSAGE_BYTES) {
      kept += p.length - 1;
      messages.push(new TextDecoder().decode(p.subarray(1, 1 + MAX_MESSAGE_BYTES)));
    }
  }
  return joinInPlace(data) ?? concatBytes(data);
}

/**
 * Band-1 payloads joined by moving them down over their own packet headers, in the reply's buffer, when
 * they are views of one buffer in order (as `readPackets` gives them): a pack as large as the reply is then
 * never held twice (issue 27: a refused reply costs its download, not two or three copies of it). Each
 * payload lands at or before where it starts, on bytes already read; `set` copes with the overlap.
 * Undefined when the payloads are not laid out so.
 */
function joinInPlace(data: readonly Uint8Array[]): Uint8Array | undefined {
  const first = data[0];
  if (!first) return undefined;
  let end = first.byteOffset;
  for (const d of data) {
    if (d.buffer !== first.buffer || d.byteOffset < end) return undefined;
    end = d.byteOffset + d.length;
  }
  let at = first.byteOffset;
  const buffer = first.buffer as ArrayBuffer;
  for (const d of data) {
    new Uint8Array(buffer, at, d.length).set(d);
    at += d.length;
  }
  return new Uint8Array(buffer, first.byteOffset, at - first.byteOffset);
}

/** The error for a reply that does not follow the protocol. */
export function malformed(what: string, detail: string): InvalidResponse {
  return new InvalidResponse(`malformed ${what} from the git server: ${detail}`, { what });
}
