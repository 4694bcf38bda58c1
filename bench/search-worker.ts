/**
 * One measured first write of bench/search.ts, in its own process (its CPU time is its own), against the
 * emulator the parent started: N documents of the search corpus (bench/search-corpus.ts), with or without
 * search of 2 fields declared in the same commit. Prints one JSON line.
 * Usage (internal): tsx bench/search-worker.ts <apiUrl> <repo> <n> <plain|search>
 */
import { performance } from 'node:perf_hooks';
import { DocumentStore } from '../src/document/index.js';
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

async function main() {
  const [api, repo, nRaw, mode] = process.argv.slice(2) as [string, string, string, 'plain' | 'search'];
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
