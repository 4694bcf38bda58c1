/**
 * Issue 29's budget table, asserted: bench/viewer.ts's own scenario (Chromium, the emulator, cold caches,
 * views reached by URL as the page's links reach them) run without added latency, each row's request count
 * held to its goal. The bench runs the same function at 20 ms a request and writes the README's table.
 */
import { describe, expect, it } from 'vitest';
import { measureViewer } from '../../bench/viewer.js';

describe('viewer budgets (bench/viewer.ts scenario)', () => {
  it('every visitor action within its request budget, and the page within its weight', async () => {
    const { rows, pageWeight } = await measureViewer({ latencyMs: 0 });
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect({ action: row.action, requests: row.requests }).toEqual({
        action: row.action,
        requests: expect.toSatisfy((n: number) => n > 0 && n <= row.max),
      });
      if (row.all304) expect(row.notModified, row.action).toBe(row.requests);
    }
    expect(pageWeight.gzipBytes).toBeLessThanOrEqual(pageWeight.budget);
  }, 240_000);
});
