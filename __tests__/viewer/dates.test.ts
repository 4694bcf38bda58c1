/**
 * The viewer's one date format (issue 40 items 2 and 13): local time, naming its zone. Before the change every
 * date read `2026-11-28 01:07 UTC`, whatever the visitor's clock said.
 */
import { describe, expect, it } from 'vitest';
import { formatLocal, zoneName } from '../../src/viewer/dates.js';

const PARIS_GB = { timeZone: 'Europe/Paris', locale: 'en-GB' };

describe('formatLocal', () => {
  it('shows the local time with the zone the visitor reads (winter CET, summer CEST, New York EST)', () => {
    expect(formatLocal('2026-11-28T01:07:42Z', 'minute', PARIS_GB)).toBe('2026-11-28 02:07 CET');
    expect(formatLocal('2026-07-01T23:30:00Z', 'minute', PARIS_GB)).toBe('2026-07-02 01:30 CEST');
    expect(formatLocal('2026-11-28T01:07:42Z', 'minute', { timeZone: 'America/New_York', locale: 'en-US' })).toBe(
      '2026-11-27 20:07 EST',
    );
    expect(formatLocal('2026-11-28T01:07:42Z', 'minute', { timeZone: 'UTC', locale: 'en-GB' })).toBe(
      '2026-11-28 01:07 UTC',
    );
  });

  it('the day alone is the local day (past midnight in Paris is the next day)', () => {
    expect(formatLocal(Date.UTC(2026, 0, 1, 23, 30), 'day', PARIS_GB)).toBe('2026-01-02');
  });

  it('a zone Intl has no name for falls back to the offset; what is not a date comes back as given', () => {
    // An unknown zone makes Intl throw: the host's clock and its `UTC±HH:MM` offset, never a bare time.
    expect(formatLocal('2026-11-28T01:07:42Z', 'minute', { timeZone: 'Nowhere/Atlantis' })).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC[+-]\d{2}:\d{2}$/,
    );
    expect(formatLocal('not a date')).toBe('not a date');
    expect(formatLocal(Number.NaN)).toBe('');
    expect(zoneName('2026-11-28T01:07:42Z', PARIS_GB)).toBe('CET');
  });
});
