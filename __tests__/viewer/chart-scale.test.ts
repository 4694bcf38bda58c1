/** The chart's pure arithmetic (src/viewer/chart/scale.ts), in Node: ticks, sampling, fields of untrusted envelopes. */
import { describe, expect, it } from 'vitest';
import {
  fieldValue,
  formatTime,
  formatValue,
  niceTicks,
  SAMPLE_BUDGET,
  SAMPLE_VERSIONS,
  sampledFieldVersions,
  sampleEvenly,
} from '../../src/viewer/chart/scale.js';
import { formatLocal } from '../../src/viewer/dates.js';

describe('niceTicks', () => {
  it('covers the range with round steps of 1, 2 or 5 × 10^k', () => {
    expect(niceTicks(3, 97)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(0.12, 0.49)).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(niceTicks(-7, 7)).toEqual([-10, -5, 0, 5, 10]);
    expect(niceTicks(1_000_000, 1_000_003)).toEqual([1_000_000, 1_000_001, 1_000_002, 1_000_003]);
  });
  it('a flat series has one tick; non-finite bounds none', () => {
    expect(niceTicks(5, 5)).toEqual([5]);
    expect(niceTicks(0, Number.NaN)).toEqual([]);
    expect(niceTicks(Number.NEGATIVE_INFINITY, 1)).toEqual([]);
  });
});

describe('sampleEvenly', () => {
  it('keeps the first and the last, evenly spaced, in order, at most n', () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const s = sampleEvenly(items, SAMPLE_VERSIONS);
    expect(s).toHaveLength(SAMPLE_VERSIONS);
    expect(s[0]).toBe(0);
    expect(s.at(-1)).toBe(99);
    expect([...s].sort((a, b) => a - b)).toEqual(s);
    const gaps = s.slice(1).map((v, i) => v - (s[i] as number));
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
  });
  it('short lists are kept whole; n ≤ 1 keeps the first', () => {
    expect(sampleEvenly([1, 2, 3], 18)).toEqual([1, 2, 3]);
    expect(sampleEvenly([1, 2, 3], 1)).toEqual([1]);
    expect(sampleEvenly([], 5)).toEqual([]);
  });
});

describe('the anonymous sample budget', () => {
  it('a document sample is the budget less the ref read and the history request', () => {
    expect(1 + 1 + SAMPLE_VERSIONS).toBe(SAMPLE_BUDGET);
  });
  it('a sum/mean sample fits 20 requests when each version costs its manifest and its parts', () => {
    for (const parts of [1, 2, 3, 5, 8]) {
      const n = sampledFieldVersions(parts);
      // ref + commits + the tip's manifest + the tip's parts + (n − 1) × (manifest + parts)
      const cost = 1 + 1 + 1 + parts + (n - 1) * (1 + parts);
      expect(n).toBeGreaterThanOrEqual(2);
      if (parts <= 3) expect(cost).toBeLessThanOrEqual(SAMPLE_BUDGET);
    }
    expect(sampledFieldVersions(1)).toBe(9);
  });
});

describe('fieldValue (untrusted envelopes)', () => {
  it('reads a dotted path of own properties', () => {
    expect(fieldValue({ data: { stars: 3, owner: { login: 'o' } } }, 'data.stars')).toBe(3);
    expect(fieldValue({ data: { owner: { login: 'o' } } }, 'data.owner.login')).toBe('o');
    expect(fieldValue({ data: {} }, 'data.stars')).toBeUndefined();
    expect(fieldValue({ data: [5] }, 'data.0')).toBeUndefined();
  });
  it('never reaches the prototype chain', () => {
    expect(fieldValue({ data: {} }, 'data.constructor')).toBeUndefined();
    expect(fieldValue({ data: {} }, 'data.__proto__')).toBeUndefined();
    expect(fieldValue({ data: {} }, 'data.toString')).toBeUndefined();
  });
});

describe('formatting', () => {
  it('numbers and local times as the chart and table show them (the host zone, named)', () => {
    expect(formatValue(1234)).toBe('1,234');
    expect(formatValue(1234.5678)).toBe('1,235');
    expect(formatValue(0.123456)).toBe('0.1235');
    const t = Date.UTC(2026, 0, 2, 3, 4);
    expect(formatTime(t, true)).toBe(formatLocal(t));
    expect(formatTime(t, true)).toMatch(/^2026-01-0[12] \d{2}:04 \S+$/);
    expect(formatTime(t)).toBe(formatLocal(t, 'day'));
    expect(formatTime(Number.NaN)).toBe('');
  });
});
