/**
 * sideBandData joins band-1 payloads; from one reply buffer it moves them down over their packet headers
 * in place (a pack as large as the reply is never held twice — issue 27), from separate buffers it copies.
 * Either way the bytes are exactly the payloads in order, and band 2 never enters the pack.
 */
import { describe, expect, it } from 'vitest';
import { concatBytes, utf8 } from '../../src/core/bytes.js';
import { pktLine, readPackets, sideBandData } from '../../src/stores/git-http/pkt-line.js';

const band = (n: number, payload: Uint8Array) => pktLine(concatBytes([Uint8Array.of(n), payload]));
const payloads = [utf8('PACK'), new Uint8Array(65_000).fill(7), utf8('tail')];

describe('sideBandData', () => {
  it('from one reply buffer: the payloads in order, written over the reply itself (no second copy)', () => {
    const reply = concatBytes([
      band(1, payloads[0]!),
      band(2, utf8('progress\n')),
      band(1, payloads[1]!),
      band(1, payloads[2]!),
    ]);
    const messages: string[] = [];
    const pack = sideBandData(readPackets(reply, 'test'), 'test', messages);
    expect(pack).toEqual(concatBytes(payloads));
    expect(pack.buffer).toBe(reply.buffer);
    expect(messages).toEqual(['progress\n']);
  });

  it('from separate buffers (a transport that hands out views of its own): copied, inputs untouched', () => {
    const packets = payloads.map((p) => readPackets(band(1, p), 'test')[0]!);
    const before = packets.map((p) => (p as Uint8Array).slice());
    const pack = sideBandData(packets, 'test');
    expect(pack).toEqual(concatBytes(payloads));
    expect(packets).toEqual(before);
  });
});
