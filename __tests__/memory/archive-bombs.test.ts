/**
 * Peak memory of the refused archive bombs with the DEFAULT limits (issue 27: ≤ 256 MiB above the
 * process's baseline for input that is refused), each read in its own Node process
 * (scenarios/archive-bomb.ts). Before the bounded reader, 400,000 empty entries peaked 591 MB above the
 * baseline and 400 MiB of gzip'd zeros 456 MB (the 2,000,000 and 1 GiB used here, more): these fail there.
 */
import { describe, expect, it } from 'vitest';
import { MiB, peakRss } from './peak-rss.js';

const SCENARIO = '__tests__/memory/scenarios/archive-bomb.ts';
const BOUND = 256 * MiB;

describe('archive bombs stay under 256 MiB above the baseline', () => {
  it('600 entries with an 8 MB pax path each: refused (InvalidResponse) at the first', async () => {
    const m = await peakRss(SCENARIO, ['pax', '600', String(8 * MiB)]);
    expect(m.error).toMatchObject({ code: 'InvalidResponse', data: { limit: 'metadata' } });
    expect(m.aboveBytes).toBeLessThan(BOUND);
  }, 120_000);

  it('2,000,000 empty entries: over maxEntries (the bulk reader falls back to batches)', async () => {
    const m = await peakRss(SCENARIO, ['entries', '2000000']);
    expect(m.error).toBeUndefined();
    expect(m.result).toMatchObject({ status: 200, overLimit: 'maxEntries' });
    expect(m.aboveBytes).toBeLessThan(BOUND);
  }, 180_000);

  it('1 GiB of zeros in 1 MiB files under valid paths (~5 MB of gzip): over maxBytes', async () => {
    const m = await peakRss(SCENARIO, ['zeros', '1024', String(MiB)]);
    expect(m.error).toBeUndefined();
    expect(m.result).toMatchObject({ status: 200, overLimit: 'maxBytes' });
    expect(m.aboveBytes).toBeLessThan(BOUND);
  }, 120_000);

  it('200,000 empty files under deep paths no directory entry announces (~115 implied each): over maxEntries', async () => {
    // 100 MiB of tar, under maxBytes: without counting the implied directories it built ~23 million of them.
    const m = await peakRss(SCENARIO, ['deep', '200000']);
    expect(m.error).toBeUndefined();
    expect(m.result).toMatchObject({ status: 200, overLimit: 'maxEntries' });
    expect(m.aboveBytes).toBeLessThan(BOUND);
  }, 180_000);
});
