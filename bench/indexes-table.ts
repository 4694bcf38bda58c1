/** bench/results/indexes.json as the docs' table (bench/indexes.ts writes it; npm run bench:docs renders it). */

interface FirstWrite {
  requests: number;
  cpuMs: number;
  ms: number;
  sent: number;
}

export interface IndexesFile {
  n: number;
  /** Filler characters per document (the document is about 140 bytes more). */
  textChars: number;
  runs: number;
  firstWrite: { plain: FirstWrite; indexed: FirstWrite };
  query: { matches: number; requests: number; received: number; indexBytes: number; warm: number };
  full: { requests: number; documents: number };
  put: { requests: number; sent: number };
}

/**
 * The measured row of each operation beside its goal.
 *
 * @example
 * console.log(indexesTable(JSON.parse(readFileSync('bench/results/indexes.json', 'utf8'))));
 */
export function indexesTable(r: IndexesFile): string {
  const w = r.firstWrite;
  const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;
  const size = Math.round((r.textChars + 140) / 10) * 10;
  return [
    `| operation, ${r.n.toLocaleString('en')} documents of ≈ ${size} bytes, 2 indexed fields (emulator, loopback) | measured | goal |`,
    '|---|---|---|',
    `| cold query, ${r.query.matches} matches, answered from the index | ${r.query.requests} requests; ${kb(r.query.received)} down for ${kb(r.query.indexBytes)} of index files (${(r.query.received / r.query.indexBytes).toFixed(2)}×) | ≤ 12; ≤ 1.2× |`,
    `| the same query again, tip unchanged | ${r.query.warm} request (304) | 1 |`,
    `| cold query returning the ${r.full.documents} documents in full | ${r.full.requests} requests | index cost + ≤ 2 |`,
    `| put of 1 document | ${r.put.requests} requests, ${kb(r.put.sent)} up | ≤ 8, ≤ 1.5 MB |`,
    `| first write with the index vs without (median of ${r.runs}) | ${w.indexed.requests} vs ${w.plain.requests} requests (${(w.indexed.requests / w.plain.requests).toFixed(2)}×); client CPU ${(w.indexed.cpuMs / 1000).toFixed(2)} s vs ${(w.plain.cpuMs / 1000).toFixed(2)} s (${(w.indexed.cpuMs / w.plain.cpuMs).toFixed(2)}×) | ≤ 1.2×; ≤ 1.3× |`,
  ].join('\n');
}
