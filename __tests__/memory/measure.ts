/**
 * The child side of a peak-memory measurement (see peak-rss.ts): run `work` once and print one JSON line
 * with the process's resident set before it (after imports and a GC) and its peak (the high-water mark
 * the kernel keeps for the process, see peakResidentBytes), and how `work` ended — its value, or the error's name, code and
 * message. Run it with `node --expose-gc --import tsx <script>` so the baseline is taken after a GC.
 *
 * @example
 * // __tests__/memory/scenarios/pack-bomb.ts
 * await measure(async () => unpack(bomb, limits));
 */
import { readFileSync } from 'node:fs';

export interface Measurement {
  baselineBytes: number;
  peakBytes: number;
  result?: unknown;
  error?: { name: string; code?: string; message: string; data?: unknown };
}

export const MARK = 'DOCDB_MEASUREMENT ';

/**
 * This process's peak resident set. On Linux, `VmHWM` of /proc/self/status: the high-water mark of the
 * memory image exec started. Not `maxRSS` there: the kernel carries the pre-exec image's high-water
 * mark into it (exec_mmap), and a child spawned from a large parent shares the parent's image until
 * exec — so `maxRSS` reported the parent's resident set (a 700 MB parent made a 7 MB scenario read as
 * 715 MB). Elsewhere, `maxRSS`.
 */
function peakResidentBytes(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) * 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS * 1024;
}

export async function measure(work: () => Promise<unknown>): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  const baselineBytes = process.memoryUsage().rss;
  const out: Measurement = { baselineBytes, peakBytes: 0 };
  try {
    out.result = await work();
  } catch (e) {
    const err = e as { name?: string; code?: string; message?: string; data?: unknown };
    out.error = { name: String(err?.name), message: String(err?.message) };
    if (err?.code !== undefined) out.error.code = String(err.code);
    if (err?.data !== undefined) out.error.data = err.data;
  }
  out.peakBytes = peakResidentBytes();
  process.stdout.write(`${MARK}${JSON.stringify(out)}\n`);
}
