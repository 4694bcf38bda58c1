/**
 * The child side of a peak-memory measurement (see peak-rss.ts): run `work` once and print one JSON line
 * with the process's resident set before it (after imports and a GC) and its peak (`maxRSS`, which the
 * kernel keeps for the whole process), and how `work` ended — its value, or the error's name, code and
 * message. Run it with `node --expose-gc --import tsx <script>` so the baseline is taken after a GC.
 *
 * @example
 * // __tests__/memory/scenarios/pack-bomb.ts
 * await measure(async () => unpack(bomb, limits));
 */
export interface Measurement {
  baselineBytes: number;
  peakBytes: number;
  result?: unknown;
  error?: { name: string; code?: string; message: string; data?: unknown };
}

export const MARK = 'DOCDB_MEASUREMENT ';

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
  out.peakBytes = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${MARK}${JSON.stringify(out)}\n`);
}
