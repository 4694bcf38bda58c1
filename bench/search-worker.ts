/**
 * One measured first write of bench/search.ts, in its own process (its CPU time is its own), against the
 * emulator the parent started: N documents of the search corpus (bench/search-corpus.ts), with or without
 * search of 2 fields declared in the same commit. Prints one JSON line.
 *
 * Two more modes measure no write, only what search adds to one, cold in a fresh process as in the write
 * (issue 42's CPU goal): `scan` tokenizes the declared fields and nothing else (the first stage of the build,
 * an ASCII scan into a term table: the floor of any build that reads the words), `build` runs the whole
 * `buildSearch` (every file of the index, nothing uploaded).
 * Usage (internal): tsx bench/search-worker.ts <apiUrl> <repo> <n> <plain|search|scan|build>
 */
import { performance } from 'node:perf_hooks';
import { DocumentStore } from '../src/document/index.js';
import { buildSearch, fieldText, type SearchDoc } from '../src/document/search/index.js';
import { expectedTerms } from '../src/document/search/invert.js';
import { TermTable } from '../src/document/search/terms.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import type { HttpTransport } from '../src/transport/types.js';
import { SEARCH_DECLARED, searchDocs } from './search-corpus.js';

export const SEARCH_TOKEN = 'ghp_bench_search_token_0123456789abcdef';

/** What one first write cost, as the worker prints it. */
export interface SearchWriteOut {
  requests: number;
  sent: number;
  ms: number;
  cpuUs: number;
}

/** Modes of the worker: a first write without or with search, or a stage of the build alone. */
export type SearchWorkerMode = 'plain' | 'search' | 'scan' | 'build';

/** Tokenize the declared fields of `docs` into one term table, as the build's first stage does. */
function scanFields(docs: readonly SearchDoc[]): number {
  const texts = docs.flatMap((d) => SEARCH_DECLARED.fields.map((f) => fieldText(d, f)));
  const chars = texts.reduce((n, t) => n + t.length, 0);
  const table = new TermTable(expectedTerms(chars));
  let tokens = 0;
  for (const t of texts) tokens += table.scan(t);
  return tokens;
}

/** CPU time of one build stage over the corpus, nothing uploaded. */
function measureStage(n: number, mode: 'scan' | 'build'): SearchWriteOut {
  const docs = searchDocs(n);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  if (mode === 'scan') scanFields(docs);
  else buildSearch(SEARCH_DECLARED, docs);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { requests: 0, sent: 0, ms, cpuUs: cpu.user + cpu.system };
}

async function main() {
  const [api, repo, nRaw, mode] = process.argv.slice(2) as [string, string, string, SearchWorkerMode];
  if (mode === 'scan' || mode === 'build') {
    console.log(JSON.stringify(measureStage(Number(nRaw), mode)));
    return;
  }
  const meter = { requests: 0, sent: 0 };
  const inner = fetchTransport({ timeoutMs: 0 });
  const transport: HttpTransport = {
    request: async (req) => {
      meter.requests++;
      meter.sent += req.body?.length ?? 0;
      return inner.request(req);
    },
  };
  const store = new RemoteApiRefStore({ transport, apiUrl: api, owner: 'bench', repo, token: SEARCH_TOKEN });
  // Generated before the clock starts: only the write is measured.
  const docs = searchDocs(Number(nRaw));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new DocumentStore(store).putMany(docs, mode === 'search' ? { search: [SEARCH_DECLARED] } : {});
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const out: SearchWriteOut = { requests: meter.requests, sent: meter.sent, ms, cpuUs: cpu.user + cpu.system };
  console.log(JSON.stringify(out));
}

if (process.argv[1]?.endsWith('search-worker.ts')) await main();
