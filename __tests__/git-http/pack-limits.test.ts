/**
 * The pack reader against hostile packs (issue 27): each is refused with `InvalidResponse` naming the
 * limit it hit (`data.limit`, `data.max`) before anything inflates it whole — a gigabyte blob declared
 * honestly, the same blob declaring a few bytes, a delta claiming a huge result, many objects that
 * together expand past `maxInflatedBytes`, and a parse that outlives `maxParseMs` on an injected clock.
 * Packs that break the format are `malformed`. Honest packs from real git: pack-reader.test.ts; the
 * memory bound: pack-memory.test.ts.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type DocDbError, InvalidConfig, InvalidResponse } from '../../src/core/errors.js';
import { GitHttpRefStore } from '../../src/stores/git-http/index.js';
import { type PackLimits, unpack } from '../../src/stores/git-http/pack-reader.js';
import { BLOB, blob, entry, objectHeader, ofsDelta, packOf, refDelta, servePack, zeros } from './pack-bombs.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** The store's defaults (options.ts), so a refusal here is one a default store makes. */
const DEFAULTS: PackLimits = {
  maxObjects: 5_000_000,
  maxObjectBytes: 128 * MiB,
  maxInflatedBytes: 1024 * MiB,
  maxParseMs: 120_000,
};

async function refusal(pack: Uint8Array, limits: Partial<PackLimits> = {}): Promise<DocDbError> {
  try {
    await unpack(pack, { ...DEFAULTS, ...limits });
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidResponse);
    return e as DocDbError;
  }
  throw new Error('expected the pack to be refused');
}

function expectLimit(e: DocDbError, limit: string, max: number): void {
  expect(e.data).toMatchObject({ what: 'pack', limit, max });
  expect(e.message).toContain(`over the limit ${limit} of ${max}`);
}

describe('a hostile pack is refused before it is inflated whole, naming the limit', () => {
  it('one 1 GiB blob of zeros (a 1 MB pack), declared honestly: refused at its header', async () => {
    const stream = await zeros(GiB);
    expect(stream.length).toBeLessThan(1.1 * MiB);
    const e = await refusal(packOf([entry(BLOB, GiB, stream)]));
    expectLimit(e, 'maxObjectBytes', 128 * MiB);
    expect(e.message).toContain(`declares ${GiB} bytes`);
  });

  it('the declared size is read before the stream: the same header on garbage is still the limit', async () => {
    const e = await refusal(packOf([entry(BLOB, GiB, Buffer.from('not zlib at all'))]));
    expectLimit(e, 'maxObjectBytes', 128 * MiB);
  });

  it('the same stream declaring 100 bytes: refused as soon as it inflates past them', async () => {
    const e = await refusal(packOf([entry(BLOB, 100, await zeros(GiB))]));
    expect(e.data).toMatchObject({ what: 'pack' });
    expect(e.message).toMatch(/object at byte \d+ inflates to more than its declared 100 bytes/);
  });

  it('a delta whose header claims a 1 TiB result (from a few bytes): refused before it is applied', async () => {
    const base = blob('x');
    const e = await refusal(packOf([base, ofsDelta(base.length, 1, 2 ** 40)]));
    expectLimit(e, 'maxObjectBytes', 128 * MiB);
    expect(e.message).toContain(`declares a result of ${2 ** 40} bytes`);
  });

  it('a ref-delta claiming a huge result (a thin pack): refused the same way', async () => {
    const e = await refusal(packOf([refDelta('ab'.repeat(20), 1, 200 * MiB)]));
    expectLimit(e, 'maxObjectBytes', 128 * MiB);
  });

  it('eleven 100 MiB delta results from a 1-byte base, each under maxObjectBytes: the total is refused', async () => {
    const base = blob('x');
    const entries: Buffer[] = [base];
    let back = base.length;
    for (let i = 0; i < 11; i++) {
      const d = ofsDelta(back, 1, 100 * MiB);
      entries.push(d);
      back += d.length;
    }
    const e = await refusal(packOf(entries));
    expectLimit(e, 'maxInflatedBytes', 1024 * MiB);
    expect(e.message).toContain('its objects resolve to');
  });

  it('many honest blobs that together pass maxInflatedBytes: refused at the one that crosses it', async () => {
    const one = entry(BLOB, MiB, await zeros(MiB));
    const e = await refusal(packOf(Array.from({ length: 12 }, () => one)), { maxInflatedBytes: 10 * MiB });
    expectLimit(e, 'maxInflatedBytes', 10 * MiB);
    // with 1 KiB of bookkeeping per declared object, the 10th 1 MiB blob crosses the 10 MiB
    expect(e.message).toContain(`declare ${10 * MiB + 12 * 1024} bytes`);
  });

  it('millions of tiny objects (each costs ~1 KiB to hold): refused from the count in the pack header', async () => {
    const e = await refusal(packOf([blob('a')], 2_000_000));
    expectLimit(e, 'maxInflatedBytes', 1024 * MiB);
    expect(e.message).toContain('its 2000000 objects cost 1024 bytes each to hold');
  });

  it('a count over maxObjects is refused from the pack header', async () => {
    const e = await refusal(packOf([blob('a')], 6_000_000));
    expectLimit(e, 'maxObjects', 5_000_000);
  });

  it('a parse that outlives maxParseMs on the injected clock stops there', async () => {
    let t = 0;
    const now = () => (t += 10); // every look at the clock is 10 ms later
    const entries = Array.from({ length: 50 }, (_, i) => blob(`object ${i}`));
    const e = await refusal(packOf(entries), { maxParseMs: 100, now });
    expectLimit(e, 'maxParseMs', 100);
    expect(t).toBeLessThan(200); // it stopped at the deadline, not after all 50 objects
  });
});

describe('a pack that breaks the format is malformed', () => {
  it.each([
    [
      'a stream shorter than declared',
      packOf([entry(BLOB, 10, deflateSync('12345'))]),
      /inflates to 5 bytes, not its declared 10/,
    ],
    ['an unknown object type', packOf([Buffer.concat([objectHeader(5, 1), deflateSync('x')])]), /unknown type 5/],
    ['a pack cut in the middle of an object', packOf([blob('hello')], 2), /ends after 1 of its 2 objects/],
    [
      'an ofs-delta whose base has another size',
      packOf([blob('xy'), ofsDelta(blob('xy').length, 7, 3)]),
      /expects a 7-byte base, its base has 2/,
    ],
    [
      'an ofs-delta pointing into the middle of an object',
      packOf([blob('xy'), ofsDelta(blob('xy').length - 1, 2, 3)]),
      /names no earlier object/,
    ],
    [
      'bytes after the last object',
      Buffer.concat([packOf([blob('a')]).subarray(0, -20), Buffer.from('junk'), Buffer.alloc(20)]),
      /4 bytes follow its last object/,
    ],
  ])('%s', async (_name, pack, message) => {
    const e = await refusal(pack);
    expect(e.data).toMatchObject({ what: 'pack' });
    expect(e.message).toMatch(message);
  });
});

describe('the limits are GitHttpRefStore options', () => {
  it.each([
    ['maxInflatedBytes', 0],
    ['maxInflatedBytes', 1.5],
    ['maxParseMs', -1],
    ['maxParseMs', '60000'],
  ])('%s = %j is InvalidConfig naming the field', (field, value) => {
    let e: DocDbError | undefined;
    try {
      new GitHttpRefStore({ remote: 'https://git.example.com/o/r.git', [field]: value });
    } catch (err) {
      e = err as DocDbError;
    }
    expect(e).toBeInstanceOf(InvalidConfig);
    expect(e?.data.field).toBe(field);
    expect(e?.message).toMatch(new RegExp(`${field} must be an integer from 1 to \\d+`));
  });

  it('a store refuses a pack past its own maxInflatedBytes, through the real read path', async () => {
    const server = await servePack(packOf([blob('a'.repeat(600)), blob('b'.repeat(600))]));
    try {
      const e = await new GitHttpRefStore({ remote: server.remote, maxInflatedBytes: 1000 }).list().catch((x) => x);
      expect(e).toBeInstanceOf(InvalidResponse);
      expectLimit(e, 'maxInflatedBytes', 1000);
    } finally {
      await server.close();
    }
  });
});
