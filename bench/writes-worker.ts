/**
 * One measured write of bench/writes.ts, in its own process (so its CPU time and peak RSS are its own),
 * against the emulator the parent started. Prints one JSON line. Usage (internal):
 *   tsx bench/writes-worker.ts <apiUrl> <repo> <n> <order: spread|sorted> [<profile dir>]
 * The documents are generated before the clock starts (their memory counts in the peak RSS, their
 * generation does not count in the CPU time): ≈ 1.2 KB each, `bench/item/group-<i % 50>/item-<i>.json`,
 * so input order spreads every run of consecutive documents over all 50 directories.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DocumentStore } from '../src/document/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import type { HttpTransport } from '../src/transport/types.js';

export const WRITES_TOKEN = 'ghp_bench_writes_token_0123456789abcdef';

/** The N documents (the peers benchmark's shape, ≈ 1.2 KB of canonical JSON each). */
export function writeDocs(n: number, order: 'spread' | 'sorted') {
  // Each through JSON, as documents arrive from a source: every string is flat. ('x'.repeat makes a
  // rope that the first serialisation flattens, so a write would seem to grow its input by 1.1 KB each.)
  const text = JSON.stringify('x'.repeat(1100));
  const docs = Array.from(
    { length: n },
    (_, i) =>
      JSON.parse(
        `{"namespace":"bench","type":"item","id":"group-${i % 50}/item-${i}","data":{"i":${i},"salt":"base","text":${text}}}`,
      ) as { namespace: string; type: string; id: string; data: unknown },
  );
  if (order === 'sorted') docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return docs;
}

/** Peak RSS of this process (KiB): VmHWM on Linux, else the resource usage figure. */
function peakRssKiB(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {}
  return process.resourceUsage().maxRSS;
}

async function main() {
  const [api, repo, nRaw, order] = process.argv.slice(2) as [string, string, string, 'spread' | 'sorted'];
  // Counted at the transport seam (no copy of any body): the meter must not add to the CPU it measures.
  const meter = { requests: 0, writes: 0, sent: 0, received: 0 };
  const inner = fetchTransport({ timeoutMs: 0 });
  const transport: HttpTransport = {
    request: async (req) => {
      meter.requests++;
      if (req.method !== 'GET') meter.writes++;
      meter.sent += req.body?.length ?? 0;
      const res = await inner.request(req);
      meter.received += res.body.length;
      return res;
    },
  };
  const store = new RemoteApiRefStore({
    transport,
    apiUrl: api,
    owner: 'bench',
    repo,
    token: WRITES_TOKEN,
  });
  const docs = writeDocs(Number(nRaw), order);
  // Where the memory is at its peak (sampled): JS heap, and off-heap bytes (ArrayBuffers, strings' backing).
  const peak = { heapUsed: 0, external: 0, rss: 0 };
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.external = Math.max(peak.external, m.external);
    peak.rss = Math.max(peak.rss, m.rss);
  }, 50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await new DocumentStore(store).putMany(docs);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sample);
  if (process.env.WRITES_MEM) console.error(JSON.stringify(peak));
  console.log(
    JSON.stringify({
      ...meter,
      ms,
      cpuUs: cpu.user + cpu.system,
      maxRssKiB: peakRssKiB(),
      changed: r.changed,
      written: r.written.length,
    }),
  );
}

if (process.argv[1]?.endsWith('writes-worker.ts')) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
