/**
 * Size of the `docdb/browser` bundle: builds `lib/browser/docdb.bundle.js` the way `npm run build:browser`
 * does (scripts/build-browser.mjs), into a temporary directory, and reports its bytes minified and
 * min+gzip (gzip level 9) with the size budget the bundle test enforces.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BUNDLE_GZIP_BUDGET, buildBrowserBundle } from '../scripts/build-browser.mjs';
import type { BenchResult } from './run.js';

/** One result: the build time, with `bytes`, `gzipBytes` and `budgetGzipBytes` as extras. */
export async function browserBundleSize(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-bench-bundle-'));
  try {
    const start = performance.now();
    const info = await buildBrowserBundle(dir);
    const totalMs = performance.now() - start;
    return {
      name: 'browser bundle (docdb.bundle.js)',
      iterations: 1,
      totalMs,
      perOpMs: totalMs,
      extra: { bytes: info.bytes, gzipBytes: info.gzipBytes, budgetGzipBytes: BUNDLE_GZIP_BUDGET },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
