/**
 * The browser's lazy feature loaders (src/browser/lazy/features.ts) load the very modules the eager ones
 * (src/document/features.ts) hold: one loader per piece, the same module behind each — so results cannot
 * differ between the browser bundle and Node, only when the code loads.
 */
import { describe, expect, it } from 'vitest';
import { features as lazy } from '../../src/browser/lazy/features.js';
import { features as eager } from '../../src/document/features.js';

describe('lazy DocumentStore features', () => {
  it('have the eager loaders, each resolving to the same module', async () => {
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(eager).sort());
    for (const name of Object.keys(eager) as (keyof typeof eager)[]) {
      expect(await lazy[name](), name).toBe(await eager[name]());
    }
  });
});
