/**
 * The tables of the large-write benchmark (bench/writes.ts): the rows of one build, and the same rows of
 * the build before issue 21 beside them when that file exists. Pure functions over the JSON results, so
 * the README's copy can be regenerated without measuring again (`npx tsx bench/writes.ts --render`).
 */

/** One measured (N, input order): medians of its runs. */
export interface WriteRow {
  n: number;
  /** `spread`: input order (every run of documents touches all 50 directories); `sorted`: by key. */
  order: string;
  runs: number;
  requests: number;
  writes: number;
  bytesSent: number;
  /** Wall time of the `putMany`. */
  ms: number;
  /** CPU (user + system) of the client process during the `putMany`. */
  clientCpuMs: number;
  /** CPU of the emulator process during the whole worker run. */
  emulatorCpuMs: number;
  peakRssMiB: number;
  /** Emulator CPU spent in create-tree requests, per quarter of the write's create-tree requests. */
  createTreeCpuQuartersMs: number[];
}

export interface WritesFile {
  date: string;
  node: string;
  /** What was measured ("before issue 21", "this build"). */
  label: string;
  rows: WriteRow[];
}

const us = (ms: number, n: number) => ((ms * 1000) / n).toFixed(0);
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? 'n/a' : `${(a / b).toFixed(1)}×`;

/** RSS per document: (peak RSS − peak RSS of the 1-document write) / N, in KB. */
function rssPerDoc(rows: WriteRow[], r: WriteRow): string {
  const base = rows.find((x) => x.n === 1 && x.order === r.order) ?? rows.find((x) => x.n === 1);
  if (!base || r.n < 1000) return '';
  return `${(((r.peakRssMiB - base.peakRssMiB) * 1024 * 1024) / r.n / 1000).toFixed(1)} KB`;
}

/** The table of one build. */
export function writesRowsTable(file: WritesFile): string {
  const head =
    '| N | order | requests | wall time | client CPU | client µs/doc | emulator CPU | emulator µs/doc | create-tree CPU, last ÷ first quarter | peak RSS | RSS per document |\n' +
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n';
  const body = file.rows
    .map((r) => {
      const q = r.createTreeCpuQuartersMs;
      const trees = r.n >= 1000 ? ratio(q[3], q[0]) : '';
      return `| ${r.n.toLocaleString('en-US')} | ${r.order} | ${r.requests} | ${r.ms.toFixed(0)} ms | ${r.clientCpuMs.toFixed(0)} ms | ${us(r.clientCpuMs, r.n)} | ${r.emulatorCpuMs.toFixed(0)} ms | ${us(r.emulatorCpuMs, r.n)} | ${trees} | ${r.peakRssMiB.toFixed(0)} MiB | ${rssPerDoc(file.rows, r)} |`;
    })
    .join('\n');
  return `${head}${body}\n`;
}

/** Growth of client and emulator CPU from N = a to N = b (same order). */
export function growth(file: WritesFile, a: number, b: number, order = 'spread'): string {
  const x = file.rows.find((r) => r.n === a && r.order === order);
  const y = file.rows.find((r) => r.n === b && r.order === order);
  return `client ${ratio(y?.clientCpuMs, x?.clientCpuMs)}, emulator ${ratio(y?.emulatorCpuMs, x?.emulatorCpuMs)}`;
}

/** The compact before/after table the README shows (spread input, the goal's shape). */
export function writesSummary(now: WritesFile, before?: WritesFile): string {
  const sizes = [...new Set(now.rows.map((r) => r.n))].filter((n) => n >= 10_000).sort((a, b) => a - b);
  const pick = (f: WritesFile | undefined, n: number) => f?.rows.find((r) => r.n === n && r.order === 'spread');
  const cell = (r: WriteRow | undefined, f: (r: WriteRow) => string) => (r ? f(r) : 'n/a');
  const lines = sizes.map((n) => {
    const a = pick(before, n);
    const b = pick(now, n);
    const both = (f: (r: WriteRow) => string) => `${cell(a, f)} → **${cell(b, f)}**`;
    return `| ${n.toLocaleString('en-US')} | ${both((r) => us(r.clientCpuMs, r.n))} | ${both((r) => us(r.emulatorCpuMs, r.n))} | ${both((r) => `${(r.ms / 1000).toFixed(1)} s`)} | ${both((r) => ratio(r.createTreeCpuQuartersMs[3], r.createTreeCpuQuartersMs[0]))} | ${both((r) => rssPerDoc((r === a ? before : now)?.rows ?? [], r) || 'n/a')} |`;
  });
  return (
    '| N (first write, 50 directories) | client CPU µs/doc | emulator CPU µs/doc | wall time | create-tree CPU last ÷ first quarter | RSS per document |\n' +
    '|---:|---:|---:|---:|---:|---:|\n' +
    `${lines.join('\n')}\n` +
    `\nGrowth from 10,000 to 40,000 documents: ${before ? `before ${growth(before, 10_000, 40_000)}; ` : ''}now ${growth(now, 10_000, 40_000)}.\n`
  );
}

/** bench/results/writes.md: how it was measured, the summary, then every row of each build. */
export function renderWrites(now: WritesFile, before?: WritesFile): string {
  const parts = [
    '# Large writes (issue 21)',
    '',
    '`npx tsx bench/writes.ts` — a first `DocumentStore.putMany` of N documents (≈ 1.2 KB each, `bench/item/group-<i % 50>/item-<i>.json`) through `RemoteApiRefStore` and `fetchTransport`, against the emulator on loopback with no added latency. The client runs in its own process (CPU = `process.cpuUsage()` around the `putMany`; the input documents are generated before and count in its peak RSS, VmHWM); the emulator is the parent process, idle otherwise, so its CPU over the run is the emulator\'s. "spread": input order (consecutive documents rotate over the 50 directories); "sorted": the same documents sorted by key. RSS per document = (peak RSS − peak RSS of the 1-document write) / N, input included. Machine: 2 shared cores with other jobs running: CPU times are steadier than wall times, and single runs vary by ≈ ±15 %.',
    '',
    writesSummary(now, before),
    `## ${now.label} (${now.date.slice(0, 10)}, Node ${now.node})`,
    '',
    writesRowsTable(now),
  ];
  if (before)
    parts.push(`## ${before.label} (${before.date.slice(0, 10)}, Node ${before.node})`, '', writesRowsTable(before));
  return `${parts.join('\n')}`;
}
