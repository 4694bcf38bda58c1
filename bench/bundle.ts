/**
 * Size of the browser bundles: builds `lib/browser/docdb.bundle.js` (`docdb/browser`) and
 * `lib/browser/git-http.bundle.js` (`docdb/git-http`) the way `npm run build:browser` does
 * (scripts/build-browser.mjs), into a temporary directory, and reports their bytes minified and min+gzip
 * (gzip level 9), with the size budgets the bundle test enforces on the first: its entry, what a page
 * downloads before its first call (the entry and the chunks it imports statically), and the entry with every
 * chunk it loads on first use. Each chunk names its largest modules (minified bytes): what it holds, and so
 * why a page downloads it.
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
  INITIAL_GZIP_BUDGET,
} from '../scripts/build-browser.mjs';
import type { BenchResult } from './run.js';

/**
 * One result per bundle — the build time, with `bytes` and `gzipBytes` (and budgets) as extras — and one per
 * chunk of `docdb/browser` (static: downloaded with the entry; lazy: on first use).
 */
export async function browserBundleSize(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-bench-bundle-'));
  const result = (name: string, totalMs: number, extra: Record<string, number | string>) => ({
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
    const chunkName = chunkNamer();
    return [
      result('browser bundle (docdb.bundle.js)', docdbMs, {
        bytes: docdb.bytes,
        gzipBytes: docdb.gzipBytes,
        budgetGzipBytes: ENTRY_GZIP_BUDGET,
        // The entry with the chunks it imports statically: what a page downloads before its first call.
        initialGzipBytes: docdb.initialGzipBytes,
        initialBudgetGzipBytes: INITIAL_GZIP_BUDGET,
        initialFiles: 1 + docdb.chunks.filter((c) => c.initial).length,
        chunks: docdb.chunks.length,
        // The entry and every chunk (the old one-file budget).
        totalGzipBytes: docdb.totalGzipBytes,
        totalBudgetGzipBytes: BUNDLE_GZIP_BUDGET,
      }),
      ...docdb.chunks.map((c) =>
        result(`  chunk ${chunkName(c.file)}${c.initial ? ' (static)' : ' (lazy)'}`, 0, {
          bytes: c.bytes,
          gzipBytes: c.gzipBytes,
          largest: largestModules(c.modules),
        }),
      ),
      result('browser bundle (git-http.bundle.js)', gitHttpMs, { bytes: gitHttp.bytes, gzipBytes: gitHttp.gzipBytes }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A chunk's name without its content hash (`docdb.chunk-remote-api-history`), the same from run to run so a
 * rerun replaces its result in latest.json; esbuild names every shared chunk `chunk`: those are numbered in
 * build order (`docdb.chunk-shared-1`).
 */
function chunkNamer(): (file: string) => string {
  let shared = 0;
  return (file) => {
    const name = basename(file, '.js').replace(/-[A-Z0-9]{8}$/, '');
    return name === 'docdb.chunk-chunk' ? `docdb.chunk-shared-${++shared}` : name;
  };
}

/** The five largest modules of a chunk with their minified bytes: `src/core/errors.ts 3.6 KB, …`. */
function largestModules(modules: Record<string, number>): string {
  return Object.entries(modules)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([path, n]) => `${path.replace(/^src\/|^.*node_modules\//, '')} ${(n / 1024).toFixed(1)} KB`)
    .join(', ');
}
