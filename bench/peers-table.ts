/**
 * The peers and scaling results (bench/results/peers.json, scaling.json): their row and file types and their
 * Markdown tables. Pure — nothing is measured here — so scripts/bench-docs.ts renders the README from the same
 * code that writes bench/results/*.md.
 */

export const STRATEGIES = ['docdb', 'blob-per-file', 'per-document', 'contents', 'git'] as const;
export type Strategy = (typeof STRATEGIES)[number];
export const SCENARIOS = ['first', '1% changed', 'no change'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface PeerRow {
  strategy: Strategy;
  n: number;
  scenario: Scenario;
  runs: number;
  requests: number;
  writes: number;
  commits: number;
  bytesSent: number;
  bytesReceived: number;
  ms: number;
  /** (max − min) / median of the wall times, in percent. */
  noisePct: number;
  peakRssMiB: number;
}

/** Bytes as B, KB or MB (binary units). */
export const kb = (b: number) =>
  b < 1024 ? `${b} B` : b < 1024 * 1024 ? `${(b / 1024).toFixed(1)} KB` : `${(b / 1024 / 1024).toFixed(1)} MB`;

/** Rows in table order: by N, then strategy order, then scenario order. */
export function sortPeerRows(rows: PeerRow[]): PeerRow[] {
  const si = (r: PeerRow) => STRATEGIES.indexOf(r.strategy);
  const ci = (r: PeerRow) => SCENARIOS.indexOf(r.scenario);
  return [...rows].sort((a, b) => a.n - b.n || si(a) - si(b) || ci(a) - ci(b));
}

/** The results file: the rows of every run merged, all measured at one injected latency. */
export interface PeersFile {
  date: string;
  node: string;
  latencyMs: number;
  rows: PeerRow[];
  /** Free-text lines printed under the table (`--note`). */
  notes?: string[];
}

/** Lines under the table for (strategy, N) pairs that lack some scenarios. */
function missingScenarioNotes(rows: PeerRow[]): string[] {
  const notes: string[] = [];
  const sizes = [...new Set(rows.map((r) => r.n))].sort((a, b) => a - b);
  for (const n of sizes) {
    for (const strategy of STRATEGIES) {
      const have = new Set(rows.filter((r) => r.n === n && r.strategy === strategy).map((r) => r.scenario));
      if (have.size === 0 || have.size === SCENARIOS.length) continue;
      const missing = SCENARIOS.filter((c) => !have.has(c));
      // Does this strategy's request count ignore the scenario at every N where all scenarios were measured?
      const full = sizes.filter(
        (m) => rows.filter((r) => r.n === m && r.strategy === strategy).length === SCENARIOS.length,
      );
      const same =
        full.length > 0 &&
        full.every(
          (m) => new Set(rows.filter((r) => r.n === m && r.strategy === strategy).map((r) => r.requests)).size === 1,
        );
      notes.push(
        `${strategy} at N = ${n.toLocaleString('en-US')}: ${missing.join(', ')} not timed.` +
          (same
            ? ` Its requests do not depend on the scenario (same requests, writes and commits for every scenario at N = ${full
                .map((m) => m.toLocaleString('en-US'))
                .join(', ')}), so they cost the same requests as ${[...have].join(', ')}.`
            : ''),
      );
    }
  }
  return notes;
}

/** The README table. */
export function peersTable(rows: PeerRow[], latencyMs: number, notes: string[] = [], missingNotes = true): string {
  const head =
    `| strategy | N | scenario | requests | write requests | commits | bytes up / down | wall time (median) | noise | peak RSS |\n` +
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n';
  const body = rows
    .map((r) => {
      const http = r.strategy !== 'git';
      return `| ${r.strategy} | ${r.n} | ${r.scenario} | ${http ? r.requests : 'n/a'} | ${http ? r.writes : 'n/a'} | ${r.commits} | ${
        http ? `${kb(r.bytesSent)} / ${kb(r.bytesReceived)}` : 'n/a'
      } | ${r.ms.toFixed(0)} ms | ${r.runs > 1 ? `±${r.noisePct.toFixed(0)}% (${r.runs} runs)` : 'n/a (1 run)'} | ${r.peakRssMiB.toFixed(0)} MiB |`;
    })
    .join('\n');
  const below = [...(missingNotes ? missingScenarioNotes(rows) : []), ...notes].map((l) => `\n${l}\n`).join('');
  return `Injected latency: ${latencyMs} ms per request (emulator on loopback; git runs locally without latency).\n\n${head}${body}\n${below}`;
}

/** The scaling results file (bench/results/scaling.json): docdb alone, no injected latency. */
export interface ScalingFile {
  date: string;
  node: string;
  rows: PeerRow[];
}

/**
 * docdb's scaling series as a table, with the memory per document: (peak RSS of the first write − peak RSS
 * of the 1-document first write) / N, which includes the document itself (input object and encoded bytes).
 */
export function scalingRowsTable(rows: PeerRow[]): string {
  const base = rows.find((r) => r.n === 1 && r.scenario === 'first')?.peakRssMiB ?? 0;
  const head =
    '| N | scenario | requests | write requests | commits | bytes up / down | wall time | peak RSS | RSS per document |\n' +
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|\n';
  const body = rows
    .map((r) => {
      const per = r.n > 1 ? `${(((r.peakRssMiB - base) * 1024) / r.n).toFixed(1)} KB` : '';
      return `| ${r.n.toLocaleString('en-US')} | ${r.scenario} | ${r.requests} | ${r.writes} | ${r.commits} | ${kb(r.bytesSent)} / ${kb(
        r.bytesReceived,
      )} | ${r.ms.toFixed(0)} ms | ${r.peakRssMiB.toFixed(0)} MiB | ${per} |`;
    })
    .join('\n');
  return `${head}${body}\n`;
}

/** bench/results/scaling.md: how the series was measured (on `date`), then {@link scalingRowsTable}. */
export function scalingTable(rows: PeerRow[], date: string): string {
  return `docdb alone, no injected latency, 1 run each (\`npx tsx bench/peers.ts --scaling\`, ${date.slice(0, 10)}; \`npm run bench\` also regenerates this file). RSS per document = (peak RSS − peak RSS of the 1-document write) / N; it includes the input documents and V8's lazy collection.\n\n${scalingRowsTable(rows)}`;
}

/**
 * The README's compact view of the results: the first write of every strategy at every N, and all three
 * scenarios at the largest N (the full table is bench/results/peers.md).
 */
export function peersSummaryTable(rows: PeerRow[], latencyMs: number): string {
  const top = Math.max(...rows.map((r) => r.n));
  const keep = sortPeerRows(rows).filter((r) => r.scenario === 'first' || r.n === top);
  return peersTable(keep, latencyMs, [], false);
}
