import { format } from '@cfworker/json-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastFormat } from '../../src/document/schema/fast-format.js';

/** The library's own `date-time`: the fast check must give its verdict on every string. */
const library = (format as Record<string, (s: string) => boolean>)['date-time']!;
const fast = fastFormat('date-time')!;

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
/** RFC 3339-like strings around every bound: month 00/13, day 00/29–32, hour 24, minute 60, second 60, offsets. */
const dateTime = fc
  .record({
    year: fc.constantFrom('2024', '2023', '1900', '2000', '0000', '999', '20a4'),
    month: two(13),
    day: fc.oneof(two(32), fc.constantFrom('28', '29', '30', '31')),
    sep: fc.constantFrom('T', 't', ' ', '_', 'TT'),
    hour: two(25),
    minute: two(61),
    second: fc.oneof(two(61), fc.constantFrom('59', '60', '5')),
    frac: fc.constantFrom('', '.5', '.123456', '.', '.x'),
    zone: fc.constantFrom('Z', 'z', '', '+01:00', '-23:59', '+24:00', '+01:60', '+0100', '+01:00Z', 'Z '),
  })
  .map((p) => `${p.year}-${p.month}-${p.day}${p.sep}${p.hour}:${p.minute}:${p.second}${p.frac}${p.zone}`);

describe('fast date-time format', () => {
  it('agrees with @cfworker/json-schema on generated date-times around every bound', () => {
    fc.assert(
      fc.property(dateTime, (s) => {
        expect(fast(s)).toBe(library(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees on leap days, leap seconds and odd strings', () => {
    for (const s of [
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-12-31T22:59:60-01:00',
      '2026-12-31T23:58:60Z',
      '2026-01-02T03:04:05Z',
      '2026-01-02T03:04:05.Z',
      '2026-01-02T03:04:05+01:00',
      '2026-01-02 03:04:05z',
      '2026-01-02T03:04:05',
      '2026-01-02',
      '',
      '２０２６-01-02T03:04:05Z',
    ]) {
      expect([s, fast(s)]).toEqual([s, library(s)]);
    }
  });

  it('other formats are the library’s own checks; an unknown one checks nothing', () => {
    expect(fastFormat('uuid')).toBe((format as Record<string, unknown>).uuid);
    expect(fastFormat('no-such-format')).toBeUndefined();
  });
});
