/** bench/results/search.json as the docs' table (bench/search.ts writes it; npm run bench:docs renders it). */

/** One first write of the corpus (median over the runs). */
export interface SearchFirstWrite {
  requests: number;
  cpuMs: number;
  ms: number;
  sent: number;
}

/**
 * Client CPU (ms, median, each cold in a fresh process as in the write) of the build's stages alone: the
 * declared fields tokenized into a term table and nothing else — the floor of any build that reads the
 * words — and the whole `buildSearch`, nothing uploaded.
 */
export interface SearchStages {
  scanCpuMs: number;
  buildCpuMs: number;
}

/** One cold search, from a fresh store. */
export interface SearchQueryRow {
  /** Which query: 'common', 'rare', 'prefix', or 'rare, every type' (no `type`). */
  kind: string;
  /** Why it was chosen (its document frequency). */
  label: string;
  text: string;
  /** With a token (GraphQL batching on) or anonymous (REST). */
  auth: 'token' | 'anonymous';
  requests: number;
  received: number;
  total: number;
  hits: number;
  ms: number;
}

/** A write into the searchable type: what it cost and how much of the index it rewrote. */
export interface SearchWriteRow {
  documents: number;
  requests: number;
  sent: number;
  /** Term shards written by the commit, and the type's shard count after it. */
  shardsRewritten: number;
  shards: number;
  /** Every search file the commit wrote (shards, manifest, table parts, id buckets). */
  searchFiles: number;
  /** Delta files the commit wrote (`delta.txt`, the parts under `delta/`) and their bytes. */
  deltaFiles?: number;
  deltaBytes?: number;
  /** The error's message when the write was refused (nothing committed). */
  refused?: string;
}

/** Everything measured at one corpus size. */
export interface SearchSize {
  n: number;
  /** UTF-8 bytes of the declared fields' text over the corpus (what the index is measured against). */
  textBytes: number;
  index: { bytes: number; files: number; shards: number; largestShard: number; termBytes: number; tableBytes: number };
  /** Absent when the first write was not measured at this size (the section was written once, untimed). */
  firstWrite?: { runs: number; plain: SearchFirstWrite; search: SearchFirstWrite; stages?: SearchStages };
  queries: SearchQueryRow[];
  write100: SearchWriteRow;
  /** `write100` and the writes of 100 documents that followed it, in order (absent in older results). */
  series?: SearchWriteRow[];
  /** Searches with a token after the series (the delta parts then hold pending entries). */
  queriesAfter?: SearchQueryRow[];
  put1: SearchWriteRow;
  /** One more put of 1 document after `put1`. */
  putAgain: SearchWriteRow;
}

export interface SearchFile {
  date: string;
  node: string;
  sizes: SearchSize[];
}

const kb = (b: number) => `${Math.round(b / 1024).toLocaleString('en')} KB`;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(2)} MB`;
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** The goal of a one-word query at `n` documents (issue 42): 4 requests / 300 KB at 10,000, 6 / 1 MB at 100,000. */
function queryGoal(n: number): string {
  if (n <= 10_000) return '≤ 4, ≤ 300 KB';
  if (n <= 100_000) return '≤ 6, ≤ 1 MB';
  return '–';
}

function queryCell(q: SearchQueryRow | undefined): string {
  if (!q) return '–';
  return `${q.requests} req, ${kb(q.received)}; \`${q.text}\`: ${q.total.toLocaleString('en')} found`;
}

function queryRows(sizes: readonly SearchSize[]): string[] {
  const first = sizes[0]!.queries;
  const kinds = [...new Set(first.map((q) => `${q.kind}|${q.auth}`))];
  return kinds.map((k) => {
    const [kind, auth] = k.split('|') as [string, string];
    const of = (s: SearchSize) => s.queries.find((q) => q.kind === kind && q.auth === auth);
    const who = auth === 'token' ? 'with a token' : 'anonymous';
    const goal = auth === 'token' ? sizes.map((s) => queryGoal(s.n)).join(' · ') : 'reported';
    return `| one-word search, ${kind}, ${who} | ${sizes.map((s) => queryCell(of(s))).join(' | ')} | ${goal} |`;
  });
}

function indexCell(s: SearchSize): string {
  const i = s.index;
  return `${mb(i.bytes)} for ${mb(s.textBytes)} of text (**${pct(i.bytes / s.textBytes)}**; table and id buckets ${pct(i.tableBytes / s.textBytes)}); ${i.shards} shards, largest ${kb(i.largestShard)}`;
}

function firstWriteCell(s: SearchSize): string {
  const w = s.firstWrite;
  if (!w) return 'not measured';
  const cpu = (x: SearchFirstWrite) => `${(x.cpuMs / 1000).toFixed(2)} s`;
  return (
    `${w.search.requests} vs ${w.plain.requests} requests (**${ratio(w.search.requests, w.plain.requests)}**); ` +
    `client CPU ${cpu(w.search)} vs ${cpu(w.plain)} (**${ratio(w.search.cpuMs, w.plain.cpuMs)}**), median of ${w.runs}`
  );
}

/** What the 1.3× CPU goal leaves for search beside the plain write, and what the build's stages take of it. */
function stagesCell(s: SearchSize): string {
  const w = s.firstWrite;
  if (!w?.stages) return 'not measured';
  const ms = (x: number) => `${Math.round(x)} ms`;
  return (
    `the goal leaves ${ms(0.3 * w.plain.cpuMs)} (0.3 × the plain write); tokenizing alone ${ms(w.stages.scanCpuMs)}, ` +
    `the whole build ${ms(w.stages.buildCpuMs)}; the write with search added ${ms(w.search.cpuMs - w.plain.cpuMs)}`
  );
}

function seriesCell(s: SearchSize): string {
  const ws = s.series;
  if (!ws || ws.length === 0) return 'not measured';
  const share = (w: SearchWriteRow) => w.shardsRewritten / w.shards;
  const most = Math.max(...ws.map((w) => w.shardsRewritten));
  const mean = ws.reduce((n, w) => n + w.shardsRewritten, 0) / ws.length;
  const worst = Math.max(...ws.map(share));
  const delta = ws.reduce((n, w) => n + (w.deltaBytes ?? 0), 0) / ws.length;
  const files = ws.reduce((n, w) => n + (w.deltaFiles ?? 0), 0) / ws.length;
  return (
    `${ws.length} writes: shards rewritten ${ws.map((w) => w.shardsRewritten).join(', ')} of ${ws.at(-1)!.shards} ` +
    `(max ${most}, **${pct(worst)}**; mean ${mean.toFixed(1)}); delta written per write ${kb(delta)} in ${files.toFixed(1)} files; ` +
    `requests ${ws.map((w) => w.requests).join(', ')}`
  );
}

function afterCell(s: SearchSize): string {
  const qs = s.queriesAfter;
  if (!qs || qs.length === 0) return 'not measured';
  return qs.map((q) => `${q.kind}: ${queryCell(q)}`).join('; ');
}

function writeCell(w: SearchWriteRow): string {
  if (w.refused) return `**refused** after ${w.requests} requests: ${w.refused}`;
  return `${w.requests} requests, ${kb(w.sent)} up; ${w.shardsRewritten} of ${w.shards} shards rewritten (**${pct(w.shardsRewritten / w.shards)}**)`;
}

/**
 * The measured figures of each corpus size beside issue 42's goals.
 *
 * @example
 * console.log(searchTable(JSON.parse(readFileSync('bench/results/search.json', 'utf8'))));
 */
export function searchTable(r: SearchFile): string {
  const sizes = [...r.sizes].sort((a, b) => a.n - b.n);
  const cols = sizes.map((s) => `${s.n.toLocaleString('en')} documents`);
  const row = (label: string, cell: (s: SearchSize) => string, goal: string) =>
    `| ${label} | ${sizes.map(cell).join(' | ')} | ${goal} |`;
  return [
    `| 2 searchable fields, title ≈ 8 + body ≈ 80 words (emulator, loopback) | ${cols.join(' | ')} | goal |`,
    `|---|${cols.map(() => '---|').join('')}---|`,
    ...queryRows(sizes),
    row('index bytes / searchable text bytes; shards', indexCell, '≤ 40 %; ≤ 128 KiB each, ≤ 256'),
    row('first write with search vs without', firstWriteCell, '≤ 1.3× each'),
    row("where the first write's extra CPU goes (cold, fresh processes)", stagesCell, 'reported'),
    row('write of 100 documents (updated) into the type', (s) => writeCell(s.write100), '≤ 5 % of the shards'),
    row(
      'a series of writes of 100 documents (updated), the first the row above',
      seriesCell,
      '≤ 5 % of the shards each',
    ),
    row('one-word searches with a token after the series', afterCell, 'as above'),
    row('then a put of 1 document (updated)', (s) => writeCell(s.put1), 'reported'),
    row('then another put of 1 document', (s) => writeCell(s.putAgain), 'accepted'),
  ].join('\n');
}
