/** How the docs write numbers from the benchmarks: one spelling per kind of figure. */

/** An integer with thousands separators: 2,016. */
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Bytes in binary units: 512 B, 1.3 KB, 13.0 MB (as bench/results/*.md write them). */
export function bytes(b: number): string {
  if (b < 1024) return `${b} B`;
  return b < 1024 * 1024 ? `${(b / 1024).toFixed(1)} KB` : `${(b / 1024 / 1024).toFixed(1)} MB`;
}

/** Whole MiB: 258 MiB. */
export const mib = (m: number): string => `${Math.round(m)} MiB`;

/** A KB figure with one decimal from bytes: 0.4 KB. */
export const kbOf = (b: number): string => `${(b / 1024).toFixed(1)} KB`;

/** Milliseconds: 0.011 ms below 0.1, 0.35 ms below 10, else whole: 63 ms. */
export function ms(x: number): string {
  if (x < 0.1) return `${x.toFixed(3)} ms`;
  return x < 10 ? `${x.toFixed(2)} ms` : `${Math.round(x)} ms`;
}

/** A duration from milliseconds: 0.2 s … 19.7 s, 25 s … 117 s, then minutes: 4.0 min. */
export function duration(x: number): string {
  const s = x / 1000;
  if (s < 20) return `${s.toFixed(1)} s`;
  return s < 180 ? `${Math.round(s)} s` : `${(s / 60).toFixed(1)} min`;
}

/** A range of durations, or one duration when both ends print the same: 3.9–4.0 min. */
export function durationRange(xs: readonly number[]): string {
  const lo = duration(Math.min(...xs));
  const hi = duration(Math.max(...xs));
  if (lo === hi) return lo;
  const [a, unitA] = lo.split(' ');
  const [b, unitB] = hi.split(' ');
  return unitA === unitB ? `${a}–${b} ${unitA}` : `${lo}–${hi}`;
}

/** The date part of an ISO timestamp: 2026-11-24. */
export const day = (iso: string): string => iso.slice(0, 10);
