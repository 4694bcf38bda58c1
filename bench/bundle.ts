/**
 * Size of the browser bundles: builds `lib/browser/docdb.bundle.js` (`docdb/browser`) and
 * `lib/browser/git-http.bundle.js` (`docdb/git-http`) the way `npm run build:browser` does
 * (scripts/build-browser.mjs), into a temporary directory, and reports their bytes minified and min+gzip
 * (gzip level 9), with the size budget the bundle test enforces on the first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BUNDLE_GZIP_BUDGET, buildBrowserBundle, buildGitHttpBundle } from '../scripts/build-browser.mjs';
import type { BenchResult } from './run.js';

/** One result per bundle: the build time, with `bytes` and `gzipBytes` (and `budgetGzipBytes`) as extras. */
export async function browserBundleSize(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-bench-bundle-'));
  const measure = async (name: string, build: () => Promise<{ bytes: number; gzipBytes: number }>, budget?: number) => {
    const start = performance.now();
    const info = await build();
    const totalMs = performance.now() - start;
    const extra = { bytes: info.bytes, gzipBytes: info.gzipBytes, ...(budget ? { budgetGzipBytes: budget } : {}) };
    return { name, iterations: 1, totalMs, perOpMs: totalMs, extra };
  };
  try {
    return [
      await measure('browser bundle (docdb.bundle.js)', () => buildBrowserBundle(dir), BUNDLE_GZIP_BUDGET),
      await measure('browser bundle (git-http.bundle.js)', () => buildGitHttpBundle(dir)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
