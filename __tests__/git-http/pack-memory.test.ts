/**
 * The memory bound of a refused pack (issue 27; SECURITY.md): a GitHttpRefStore reading from a server
 * that sends a zlib bomb — a 1 MB pack holding one 1 GiB blob of zeros, declared honestly or declaring
 * 100 bytes — ends with `InvalidResponse` naming the limit while its process's resident set stays within
 * 256 MiB of its baseline. Each read runs through the real store (ls-refs, fetch, pack reader) in its
 * own Node process (peak-rss.ts), the server in this one. Before the fix the first peaked at 4.2 GB.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiB, peakRss } from '../memory/peak-rss.js';
import { BLOB, entry, packOf, servePack, zeros } from './pack-bombs.js';

const SCENARIO = '__tests__/memory/scenarios/git-http-read.ts';
const GiB = 1024 * MiB;
/** The bound the issue sets for a refused input, above the process's baseline. */
const BOUND = 256 * MiB;

let bomb: Buffer;
beforeAll(async () => {
  bomb = await zeros(GiB);
}, 60_000);

describe('a git-http read of a zlib bomb stays within 256 MiB of its baseline', () => {
  let server: Awaited<ReturnType<typeof servePack>> | undefined;
  afterAll(() => server?.close());

  it('1 GiB of zeros declared honestly: refused at the object header (maxObjectBytes)', async () => {
    server = await servePack(packOf([entry(BLOB, GiB, bomb)]));
    const m = await peakRss(SCENARIO, [server.remote]);
    expect(m.error).toMatchObject({ code: 'InvalidResponse', data: { limit: 'maxObjectBytes', max: 128 * MiB } });
    expect(m.aboveBytes).toBeLessThan(BOUND);
    await server.close();
    server = undefined;
  }, 120_000);

  it('the same stream declaring 100 bytes: refused once it inflates past them', async () => {
    server = await servePack(packOf([entry(BLOB, 100, bomb)]));
    const m = await peakRss(SCENARIO, [server.remote]);
    expect(m.aboveBytes).toBeLessThan(BOUND);
    expect(m.error?.code).toBe('InvalidResponse');
    expect(m.error?.message).toMatch(/inflates to more than its declared 100 bytes/);
  }, 120_000);

  it('with the default maxFetchBytes, the largest refused reply (just under 64 MiB, not zlib) stays within the bound; a larger one is cut off', async () => {
    // The worst a server can do under the default cap: a reply the store must receive whole, then refuse.
    const garbage = randomBytes(64 * MiB - 64 * 1024);
    garbage.set(packOf([], 1000).subarray(0, 12)); // a PACK header of 1,000 objects: the check reads on into the garbage
    server = await servePack(garbage);
    const refused = await peakRss(SCENARIO, [server.remote]);
    expect(refused.error?.code).toBe('InvalidResponse');
    expect(refused.aboveBytes).toBeLessThan(BOUND);
    await server.close();
    server = await servePack(randomBytes(65 * MiB));
    const over = await peakRss(SCENARIO, [server.remote]);
    expect(over.error).toMatchObject({ code: 'TransportError', data: { reason: 'too-large', limit: 'maxFetchBytes' } });
    expect(over.aboveBytes).toBeLessThan(BOUND);
    await server.close();
    server = undefined;
  }, 180_000);
});
