/**
 * The backfill results (bench/results/backfill.json): row and file types, the growth per document, and the
 * Markdown tables of bench/results/backfill.md. Pure — nothing is measured here — so scripts/bench-docs.ts
 * renders the README's figures from the same rows.
 */
import type { Variant } from './backfill-worker.js';

export interface BackfillSample {
  variant: Variant;
  n: number;
  requests: number;
  writes: number;
  sent: number;
  received: number;
  sourceRequests: number;
  sourceBytes: number;
  ms: number;
  maxRssKiB: number;
  peakHeapUsed: number;
  peakExternal: number;
  /** Largest JS heap committed by V8 (used + garbage not yet collected + free pages it keeps). */
  peakHeapTotal: number;
  retainedHeap: number;
  /** Heap + off-heap bytes in use (after a full GC) once every item is read and reduced, minus before the run. */
  heldWhenRead: number;
  version: string | null;
}

/** One measured configuration: a variant, optionally altered for diagnosis (BACKFILL_DIAG in the worker). */
export interface Case {
  variant: Variant;
  diag?: string;
}
/** A case's row label: the variant, with its diagnosis mode if any. */
export const labelOf = (c: Case) =>
  c.diag === 'no-remember' ? `${c.variant}, no tree caching*` : c.diag ? `${c.variant} (${c.diag})` : c.variant;

export interface BackfillRow extends Omit<BackfillSample, 'maxRssKiB' | 'version'> {
  /** The variant, with its diagnosis mode if any. */
  label: string;
  diag?: string;
  runs: number;
  peakRssMiB: number;
  /** (max − min) / median of the peak RSS over the runs, in percent. */
  rssNoisePct: number;
}

/** Whether a backfill of N documents fits in a V8 heap of `heapLimitMiB` (the live set, without GC slack). */
export interface FitRow {
  variant: Variant;
  /** Diagnosis mode, when the run was altered (e.g. `no-remember`: the store does not cache its new trees). */
  diag?: string;
  n: number;
  heapLimitMiB: number;
  fits: boolean;
  /** Peak RSS of a run that fitted. */
  peakRssMiB?: number;
  ms: number;
}

/** Bytes as whole MiB. */
export const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;

/** The 1-page run of a variant (the baseline of "per document" figures), when the series has one. */
const baselineOf = (rows: BackfillRow[], label: string, per: number) =>
  rows.find((r) => r.label === label && r.n <= per);

/**
 * Growth per extra document of a variant between its smallest N above the 1-page baseline and its largest N,
 * in bytes: of peak RSS, of peak JS heap, and of the heap still held at the end (after a full GC).
 */
export function growth(rows: BackfillRow[], label: string, per: number) {
  const xs = rows.filter((r) => r.label === label && r.n > per).sort((a, b) => a.n - b.n);
  const lo = xs[0];
  const hi = xs.at(-1);
  if (!lo || !hi || lo.n === hi.n) return undefined;
  const dn = hi.n - lo.n;
  return {
    from: lo.n,
    to: hi.n,
    rssBytesPerDoc: Math.round(((hi.peakRssMiB - lo.peakRssMiB) * 1024 * 1024) / dn),
    peakHeapBytesPerDoc: Math.round((hi.peakHeapUsed - lo.peakHeapUsed) / dn),
    heldBytesPerDoc: Math.round((hi.retainedHeap - lo.retainedHeap) / dn),
    heldWhenReadBytesPerDoc: Math.round((hi.heldWhenRead - lo.heldWhenRead) / dn),
  };
}

/** The Markdown tables (bench/results/backfill.md). */
export function backfillTable(rows: BackfillRow[], fits: FitRow[], per: number): string {
  const head =
    '| variant | N | peak RSS | RSS per document¹ | peak JS heap used / committed | peak external² | held when read³ | held at the end⁴ | requests | write requests | bytes up | wall time |\n' +
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n';
  const body = rows
    .map((r) => {
      const base = baselineOf(rows, r.label, per);
      const perDoc =
        base && r.n > base.n ? `${(((r.peakRssMiB - base.peakRssMiB) * 1024 * 1024) / r.n).toFixed(0)} B` : '';
      const noise = r.runs > 1 ? ` (±${r.rssNoisePct.toFixed(0)}%, median of ${r.runs})` : '';
      return `| ${r.label} | ${r.n.toLocaleString('en-US')} | ${r.peakRssMiB.toFixed(0)} MiB${noise} | ${perDoc} | ${mib(r.peakHeapUsed)} / ${mib(r.peakHeapTotal)} | ${mib(r.peakExternal)} | ${mib(r.heldWhenRead)} | ${mib(r.retainedHeap)} | ${r.requests} | ${r.writes} | ${(r.sent / 1e6).toFixed(1)} MB | ${(r.ms / 1000).toFixed(1)} s |`;
    })
    .join('\n');
  const labels = [...new Set(rows.map((r) => r.label))];
  const growthLines = labels
    .map((v) => {
      const g = growth(rows, v, per);
      return g
        ? `- ${v}: ${g.rssBytesPerDoc} B of peak RSS, ${g.peakHeapBytesPerDoc} B of peak JS heap, ${g.heldWhenReadBytesPerDoc} B held when the source is read, ${g.heldBytesPerDoc} B held at the end (N ${g.from.toLocaleString('en-US')} → ${g.to.toLocaleString('en-US')})`
        : '';
    })
    .filter(Boolean)
    .join('\n');
  const fitLines = fits.length
    ? `\n\nDoes the backfill of ${(fits[0] as FitRow).n.toLocaleString('en-US')} documents fit in a V8 heap of a given size (\`--max-old-space-size\`: the live set must fit, without the collector's slack)?\n\n` +
      '| variant | heap limit | fits | peak RSS | wall time |\n|---|---:|---|---:|---:|\n' +
      fits
        .map(
          (f) =>
            `| ${labelOf(f)} | ${f.heapLimitMiB} MiB | ${f.fits ? 'yes' : 'no: out of memory'} | ${f.peakRssMiB ? `${f.peakRssMiB.toFixed(0)} MiB` : ''} | ${(f.ms / 1000).toFixed(1)} s |`,
        )
        .join('\n')
    : '';
  return (
    `Backfill (first run, every document new) of one \`http\` projection reading pages of ${per} items (~1 KB each) from a ` +
    'loopback server, written through the GitHub API store to the emulator (no injected latency). Each run is its own ' +
    "process: peak RSS is that process's VmHWM (not ru_maxrss, which on Linux includes the forking parent's peak). streamed: the Action as it is (parts of 1,000); gathered: the " +
    'same run on a store without commitParts (every encoded change gathered into one commit); collect: the behaviour ' +
    'before streaming (every document collected, one commit). The machine (2 cores) was shared with other work: ' +
    'wall times are noisy, memory figures less so; a peak RSS not marked as a median is one run.\n\n' +
    `${head}${body}\n\n` +
    `¹ (peak RSS − peak RSS of the ${per}-document run) / N. ² ArrayBuffers and other memory outside the JS heap, sampled every 50 ms. ` +
    '³ JS heap + off-heap memory in use after a full GC once every item is read and reduced (before the last part ' +
    'and the commit), minus before the run: what the run must hold. ⁴ JS heap still in use after a full GC at the end, with the run report alive, minus the heap before the run: the ' +
    "key-sized state (keys, blob SHAs, report lists) and the store's tree cache. * A diagnosis, not a configuration: " +
    "the worker replaces the store's private `rememberOwnTrees` (which, at the end of a write, computes every new tree " +
    "level from all of the write's keys, to cache them) with a no-op.\n\n" +
    `Growth per extra document:\n\n${growthLines}${fitLines}\n`
  );
}

/** bench/results/backfill.json as bench/backfill.ts writes it. */
export interface BackfillFile {
  date: string;
  node: string;
  per: number;
  rows: BackfillRow[];
  growth: Record<string, ReturnType<typeof growth>>;
  fits: FitRow[];
}
