/**
 * Sentences and paragraphs whose every figure comes from the results: the peers comparison at N = 10,000,
 * docdb's memory per document, the backfill growth, and CPU throughput.
 */
import { type PeerRow, SCENARIOS } from '../../bench/peers-table.js';
import { bytes, duration, durationRange, int, kbOf, mib, ms } from './format.js';
import { bench, extra, peerRow, type Results } from './results.js';

type Paragraph = (r: Results) => string;

/** The three scenario rows of a strategy at N in peers.json. */
const scenarios = (r: Results, strategy: string, n: number) =>
  SCENARIOS.map((c) => peerRow(r.peers.rows, 'peers.json', strategy, n, c));

/** docdb and every peer at N = 10,000, in words. */
function peersAt10000(r: Results): string {
  const n = 10_000;
  const [first, changed, none] = scenarios(r, 'docdb', n) as [PeerRow, PeerRow, PeerRow];
  const reads = first.requests - first.writes;
  const docdb =
    `At N = ${int(n)} (${r.peers.latencyMs} ms per request): docdb's first write is **${first.requests} requests** ` +
    `(${reads === 1 ? 'the ref read' : `${reads} reads`} and ${first.writes} writes: ${first.writes - 2} create-tree ` +
    `requests, as the ${bytes(first.bytesSent)} of inline content goes ≈ 1 MiB per request, commit, ref update) in ` +
    `${duration(first.ms)}; a 1 % change costs ${changed.requests} requests (${duration(changed.ms)}) and no change ` +
    `${none.requests} requests, ${none.writes} writes (${duration(none.ms)}).`;
  const every = (strategy: string, what: string) => {
    const xs = scenarios(r, strategy, n);
    const same = new Set(xs.map((x) => x.requests)).size === 1;
    const times = durationRange(xs.map((x) => x.ms));
    if (!same) throw new Error(`peers.json: ${strategy} at N = ${n} costs different requests per scenario`);
    return `${strategy} needs ${int(xs[0]!.requests)} requests${what} (${times}) in every scenario`;
  };
  const [cFirst, , cNone] = scenarios(r, 'contents', n);
  const contents =
    `contents needs ${int(cFirst!.requests)} requests and ${int(cFirst!.commits)} commits (${duration(cFirst!.ms)}) ` +
    `for the first write and still ${int(cNone!.requests)} \`GET\`s (${duration(cNone!.ms)}, ${bytes(cNone!.bytesReceived)} down) ` +
    'when nothing changed';
  const perDoc = scenarios(r, 'per-document', n)[0]!;
  const blob = scenarios(r, 'blob-per-file', n);
  const blobCommits = blob.every((x) => x.commits > 0) ? ' and commits even when nothing changed' : '';
  const git = durationRange(scenarios(r, 'git', n).map((x) => x.ms));
  return (
    `${docdb} ${every('blob-per-file', '')}${blobCommits}; ${contents}; ` +
    `${every('per-document', ` and ${int(perDoc.commits)} commits`)}. git over a local bare repository (no HTTP) took ${git}.`
  );
}

/** docdb's peak RSS per document at 100,000 documents (scaling.json). */
function scalingMemory(r: Results): string {
  const n = 100_000;
  const top = peerRow(r.scaling.rows, 'scaling.json', 'docdb', n, 'first').peakRssMiB;
  const base = peerRow(r.scaling.rows, 'scaling.json', 'docdb', 1, 'first').peakRssMiB;
  return (
    `a ${int(n)}-document \`putMany\` peaks at ${mib(top)}, (${Math.round(top)} − ${Math.round(base)} baseline) / ` +
    `${int(n)} ≈ **${(((top - base) * 1024) / n).toFixed(1)} KB per document including the input documents**`
  );
}

/** The backfill's growth per extra document, streamed against collected first, and whether it fits a small heap. */
function backfillGrowth(r: Results): string {
  const s = r.backfill.growth.streamed;
  const c = r.backfill.growth.collect;
  if (!s || !c) throw new Error('bench/results/backfill.json has no growth for streamed and collect');
  return (
    `Per extra document (${int(s.from)} → ${int(s.to)}): ≈ ${kbOf(s.heldWhenReadBytesPerDoc)} held (keys, SHAs, report lists) ` +
    `against ≈ ${kbOf(c.heldWhenReadBytesPerDoc)}, and ≈ ${kbOf(s.rssBytesPerDoc)} of peak RSS against ≈ ${kbOf(c.rssBytesPerDoc)}. ` +
    `${fitSentence(r)}`
  );
}

/** Whether the largest streamed backfill fits the smallest heap limit measured, and collecting first. */
function fitSentence(r: Results): string {
  const heapRun = (variant: string) => r.backfill.fits.find((f) => f.variant === variant && !f.diag);
  const s = heapRun('streamed');
  const c = heapRun('collect');
  if (!s || !c) throw new Error('bench/results/backfill.json has no heap-limit runs for streamed and collect');
  const heap = `a ${s.heapLimitMiB} MiB V8 heap (\`--max-old-space-size=${s.heapLimitMiB}\`)`;
  return (
    `The ${int(s.n)}-document streamed backfill ${s.fits ? 'also runs' : 'does not run'} in ${heap}` +
    `${c.fits ? ', as does collecting every change first' : ', where collecting every change first runs out of memory'}.`
  );
}

/** What a 100,000-document backfill holds and peaks at, streamed against collected first (one sentence). */
function backfillHeld(r: Results): string {
  const at = (label: string) => {
    const n = Math.max(...r.backfill.rows.map((x) => x.n));
    const row = r.backfill.rows.find((x) => x.label === label && x.n === n);
    if (!row) throw new Error(`bench/results/backfill.json has no ${label} row at N = ${n}`);
    return row;
  };
  const s = at('streamed');
  const c = at('collect');
  const gs = r.backfill.growth.streamed!;
  const gc = r.backfill.growth.collect!;
  const fits = r.backfill.fits.find((f) => f.variant === 'streamed' && !f.diag);
  return (
    `once the source is read, a ${int(s.n)}-document run holds ≈ ${mib(s.heldWhenRead / 2 ** 20)} ` +
    `(≈ ${kbOf(gs.heldWhenReadBytesPerDoc)} per extra document: keys, blob SHAs, the run report's key lists) where ` +
    `collecting every document first held ≈ ${mib(c.heldWhenRead / 2 ** 20)} (≈ ${kbOf(gc.heldWhenReadBytesPerDoc)} per document); ` +
    `peak RSS ≈ ${mib(s.peakRssMiB)} against ≈ ${mib(c.peakRssMiB)}` +
    (fits ? `, and the streamed run ${fits.fits ? 'fits' : 'does not fit'} a ${fits.heapLimitMiB} MiB V8 heap` : '')
  );
}

/** SHA-1 and base64 throughput, platform against portable, and a memory get. */
function cpu(r: Results): string {
  const rate = (name: string) => int(extra(r, name, 'mibPerSec'));
  return (
    `CPU (Node ${r.latest.node}, 5 MiB inputs, this machine while other jobs ran): SHA-1 through \`node:crypto\` ≈ ` +
    `${rate('sha1 5 MiB (node:crypto)')} MiB/s vs ${rate('sha1 5 MiB (JavaScript)')} MiB/s in JavaScript; base64 through ` +
    `\`Buffer\` ≈ ${rate('base64 encode 5 MiB (Buffer)')} MiB/s encode and ${rate('base64 decode 5 MiB, 60-char lines (Buffer)')} MiB/s ` +
    `decode of GitHub's 60-character lines (whitespace stripped and the alphabet checked first; \`Buffer.from\` alone decodes ` +
    `${rate('base64 decode 5 MiB, one line (Buffer.from alone)')} MiB/s) vs ${rate('base64 encode 5 MiB (JavaScript)')} / ` +
    `${rate('base64 decode 5 MiB, 60-char lines (JavaScript)')} MiB/s hand-written; a \`MemoryRefStore\` get in a ` +
    `1,000-key section ≈ ${ms(bench(r, 'memory get (1,000-key section)').perOpMs)} (decoded-tree index).`
  );
}

/** Generated sentences by marker name (a paragraph needs a block marker; a clause may sit inline). */
export const paragraphs: Record<string, Paragraph> = {
  'peers-10000': peersAt10000,
  'scaling-memory': scalingMemory,
  'backfill-growth': backfillGrowth,
  'backfill-held': backfillHeld,
  cpu,
};
