/**
 * Size of the browser bundles: builds `lib/browser/docdb.bundle.js` (`docdb/browser`) and
 * `lib/browser/git-http.bundle.js` (`docdb/git-http`) the way `npm run build:browser` does
 * (scripts/build-browser.mjs), into a temporary directory, and reports their bytes minified and min+gzip
 * (gzip level 9), with the size budgets the bundle test enforces on the first: its entry, and its entry with
 * every chunk it loads on first use.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  BUNDLE_GZIP_BUDGET,
  buildBrowserBundle,
  buildGitHttpBundle,
  ENTRY_GZIP_BUDGET,
} from '../scripts/build-browser.mjs';
import type { BenchResult } from './run.js';

/**
 * One result per bundle — the build time, with `bytes` and `gzipBytes` (and budgets) as extras — and one per
 * chunk of `docdb/browser` (static: downloaded with the entry; lazy: on first use).
 */
export async function browserBundleSize(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-bench-bundle-'));
  const result = (name: string, totalMs: number, extra: Record<string, number>) => ({
    name,
    iterations: 1,
    totalMs,
    perOpMs: totalMs,
    extra,
  });
  try {
    let start = performance.now();
    const docdb = await buildBrowserBundle(dir);
    const docdbMs = performance.now() - start;
    start = performance.now();
    const gitHttp = await buildGitHttpBundle(dir);
    const gitHttpMs = performance.now() - start;
    return [
      result('browser bundle (docdb.bundle.js)', docdbMs, {
        bytes: docdb.bytes,
        gzipBytes: docdb.gzipBytes,
        budgetGzipBytes: ENTRY_GZIP_BUDGET,
        // The entry with the chunks it imports statically: what a page downloads before its first call.
        initialGzipBytes: docdb.initialGzipBytes,
        // The entry and every chunk (the old one-file budget).
        totalGzipBytes: docdb.totalGzipBytes,
        totalBudgetGzipBytes: BUNDLE_GZIP_BUDGET,
      }),
      ...docdb.chunks.map((c) =>
        result(`  chunk ${basename(c.file)}${c.initial ? ' (static)' : ' (lazy)'}`, 0, {
          bytes: c.bytes,
          gzipBytes: c.gzipBytes,
        }),
      ),
      result('browser bundle (git-http.bundle.js)', gitHttpMs, { bytes: gitHttp.bytes, gzipBytes: gitHttp.gzipBytes }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
