/**
 * Pure parts of issue 40 in Node: which rate limit stopped a read (`limitStop`) — the primary limit told
 * from a secondary one by `x-ratelimit-remaining: 0`, never by `retryAfter`, which the client sets on both —
 * and a small unindexed type's aggregate over its documents (`aggregateOf`).
 */
import { describe, expect, it } from 'vitest';
import { Forbidden, RateLimited } from '../../src/core/errors.js';
import { aggregateOf } from '../../src/viewer/chart/documents-series.js';
import { limitStop } from '../../src/viewer/frame/rate-limit.js';

const time = (s: number) => `T${s}`;
const exhausted = { limit: 60, remaining: 0, used: 60, reset: 1_800_000_000, resource: 'core' };
const left = { ...exhausted, remaining: 12, used: 48 };

describe('limitStop', () => {
  it('a primary answer that also carries retryAfter (the client sets both) is the hourly limit, with its reset', () => {
    const error = new RateLimited('primary rate limit exhausted', { reset: 1_800_000_000, retryAfter: 3387 });
    const stop = limitStop(error, { rateLimit: exhausted, hasToken: false, time });
    expect(stop?.kind).toBe('primary');
    expect(stop?.message).toBe(
      "GitHub's hourly rate limit is used up (60 requests an hour without a token): nothing more can be read until it resets at T1800000000. Add a token for 5,000 an hour.",
    );
    expect(stop?.message).not.toContain('3387');
  });

  it('a request held back after the hour ran out (no reset in the error) is the hourly limit, by the last answer', () => {
    const unsent = new RateLimited('was not sent', { retryAfter: 3000, sent: false });
    expect(limitStop(unsent, { rateLimit: exhausted, hasToken: false, time })?.kind).toBe('primary');
    const withToken = limitStop(unsent, {
      rateLimit: { ...exhausted, limit: 5000 },
      hasToken: true,
      time,
    });
    expect(withToken?.message).toBe(
      "GitHub's hourly rate limit is used up (5000 requests an hour with your token): nothing more can be read until it resets at T1800000000.",
    );
  });

  it('a secondary limit, budget left, says when to try again; a minute when the answer gave no retry-after', () => {
    const secondary = new RateLimited('secondary rate limit', { retryAfter: 37 });
    expect(limitStop(secondary, { rateLimit: left, hasToken: false, time })).toEqual({
      kind: 'secondary',
      message:
        'GitHub asked to slow down (a secondary rate limit, for bursts of requests; the hourly limit is not used up). Try again in 37 seconds.',
    });
    expect(
      limitStop(new RateLimited('secondary', {}), { rateLimit: undefined, hasToken: false, time })?.message,
    ).toContain('Try again in a minute.');
  });

  it('any other error is not a limit', () => {
    expect(limitStop(new Forbidden('no', {}), { rateLimit: exhausted, hasToken: false, time })).toBeUndefined();
    expect(limitStop(new Error('x'), { rateLimit: exhausted, hasToken: false, time })).toBeUndefined();
  });
});

describe('aggregateOf (a type without an index, from its documents)', () => {
  const docs = [{ data: { t: 4 } }, { data: { t: 'n/a' } }, { data: { t: -2 } }, { data: { t: [1, 2] } }, { data: {} }];
  it('counts every document; sums, averages and bounds only the numbers', () => {
    expect(aggregateOf(docs, { aggregate: 'count' })).toEqual({ value: 5 });
    expect(aggregateOf(docs, { aggregate: 'sum', field: 'data.t' })).toEqual({ value: 2 });
    expect(aggregateOf(docs, { aggregate: 'mean', field: 'data.t' })).toEqual({ value: 1 });
    expect(aggregateOf(docs, { aggregate: 'min', field: 'data.t' })).toEqual({ value: -2 });
    expect(aggregateOf(docs, { aggregate: 'max', field: 'data.t' })).toEqual({ value: 4 });
  });
  it('no number at the field: a sum of 0, the others a gap that says why', () => {
    expect(aggregateOf(docs, { aggregate: 'sum', field: 'data.x' })).toEqual({ value: 0 });
    expect(aggregateOf(docs, { aggregate: 'max', field: 'data.x' })).toEqual({
      value: null,
      note: 'no document holds a number at data.x',
    });
    expect(aggregateOf([], { aggregate: 'count' })).toEqual({ value: 0 });
  });
});
