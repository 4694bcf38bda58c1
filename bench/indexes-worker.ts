/**
 * One measured first write of bench/indexes.ts, in its own process (its CPU time is its own), against the
 * emulator the parent started: N documents, with or without an index of 2 fields declared in the same
 * commit. Prints one JSON line. Usage (internal): tsx bench/indexes-worker.ts <apiUrl> <repo> <n> <plain|indexed> [<text chars>]
 */
import { performance } from 'node:perf_hooks';
import { DocumentStore } from '../src/document/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import type { HttpTransport } from '../src/transport/types.js';

export const INDEXES_TOKEN = 'ghp_bench_indexes_token_0123456789abcdef';
export const LANGS = ['TypeScript', 'Go', 'Rust', 'Python', 'C', 'Java', 'Ruby'];
export const INDEX = { namespace: 'bench', type: 'item', fields: ['data.stars', 'data.language'] };

/**
 * The documents, generated before the clock starts: `text` characters of filler (1,100 by default: ≈ 1.2 KB
 * of canonical JSON, the size bench/writes.ts uses; 100 gives ≈ 250 bytes).
 */
export function indexDocs(n: number, text = 1100) {
  return Array.from(
    { length: n },
    (_, i) =>
      JSON.parse(
        `{"namespace":"bench","type":"item","id":"g${i % 50}/item-${i}","data":{"i":${i},"language":"${LANGS[i % 7]}","stars":${(i * 7919) % 1000},"text":"${'x'.repeat(text)}"}}`,
      ) as { namespace: string; type: string; id: string; data: unknown },
  );
}

async function main() {
  const [api, repo, nRaw, mode, textRaw] = process.argv.slice(2) as [
    string,
    string,
    string,
    'plain' | 'indexed',
    string,
  ];
  const meter = { requests: 0, sent: 0 };
  const inner = fetchTransport({ timeoutMs: 0 });
  const transport: HttpTransport = {
    request: async (req) => {
      meter.requests++;
      meter.sent += req.body?.length ?? 0;
      return inner.request(req);
    },
  };
  const store = new RemoteApiRefStore({ transport, apiUrl: api, owner: 'bench', repo, token: INDEXES_TOKEN });
  const docs = indexDocs(Number(nRaw), Number(textRaw ?? 1100));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new DocumentStore(store).putMany(docs, mode === 'indexed' ? { indexes: [INDEX] } : {});
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ requests: meter.requests, sent: meter.sent, ms, cpuUs: cpu.user + cpu.system }));
}

if (process.argv[1]?.endsWith('indexes-worker.ts')) await main();
