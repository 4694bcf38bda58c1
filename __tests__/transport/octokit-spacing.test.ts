/**
 * createOctokit's spacing options are checked before anything is sent: a negative or fractional spacing is a
 * TypeError naming the option (plugin-throttling would otherwise take it as is).
 */
import { describe, expect, it } from 'vitest';
import { createOctokit } from '../../src/transport/create-octokit.js';

describe('write and notification spacing options', () => {
  it('accept whole milliseconds from 0', () => {
    expect(() => createOctokit({ writeSpacingMs: 0, notificationSpacingMs: 0 })).not.toThrow();
    expect(() => createOctokit({ writeSpacingMs: 1000, notificationSpacingMs: 3000 })).not.toThrow();
  });

  it('refuse anything else, naming the option', () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => createOctokit({ writeSpacingMs: bad })).toThrow(/writeSpacingMs must be a non-negative integer/);
      expect(() => createOctokit({ notificationSpacingMs: bad })).toThrow(
        /notificationSpacingMs must be a non-negative integer/,
      );
    }
  });
});
