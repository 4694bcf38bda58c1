/**
 * One backfill run, in its own process (so its peak RSS is its own), against the emulator and the page
 * server that the parent (bench/backfill.ts) started. Prints one JSON line. Usage (internal):
 *   node --expose-gc --import tsx bench/backfill-worker.ts <variant> <apiUrl> <repo> <dataUrl> <pages> <per>
 * Variants:
 *   streamed   runProjections as the Action runs it: changes stream into the commit in parts of 1,000
 *              (StreamedCommit → DocumentStore.commitParts → RemoteApiRefStore.commitParts).
 *   gathered   runProjections on the same store with `commitParts` hidden: commitInParts then gathers every
 *              encoded change and makes one `commit` (what a store without commitParts gets).
 *   collect    the behaviour before streaming: runProjection collects every DocumentOp of the source,
 *              then ONE DocumentStore.commit of all of them (as the runner did before StreamedCommit).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { RefStore } from '../src/core/refstore.js';
import { type DocumentOp, DocumentStore } from '../src/document/document-store.js';
import { loadReducer } from '../src/projection/reducers/index.js';
import { runProjections } from '../src/projection/run/index.js';
import { runProjection } from '../src/projection/run/run-projection.js';
import { fingerprintOf, stateKey } from '../src/projection/run/state-file.js';
import { budgetedClient, RateBudget } from '../src/projection/sources/budget.js';
import type { SourceClient } from '../src/projection/sources/index.js';
import { parseSpec, type Spec } from '../src/projection/spec/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { ObjectWriter } from '../src/stores/remote-api/object-writer.js';
import { fetchTransport } from '../src/transport/index.js';
import { meteredFetch } from './metered-fetch.js';

export const BACKFILL_TOKEN = 'ghp_bench_backfill_token_0123456789abcdef';
export const VARIANTS = ['streamed', 'gathered', 'collect'] as const;
export type Variant = (typeof VARIANTS)[number];

/** The spec of the benchmark: one `http` projection over `pages` URLs of the page server, raw reducer. */
export function backfillSpec(dataUrl: string, pages: number): string {
  const urls = Array.from({ length: pages }, (_, i) => `      - ${dataUrl}/page/${i}`).join('\n');
  return `projections:\n  items:\n    source:\n      type: http\n      url:\n${urls}\n    identity: { id: "{item.group}/{item.id}" }\n`;
}

const meter = { requests: 0, writes: 0, sent: 0, received: 0, sourceRequests: 0, sourceBytes: 0 };

const countingFetch = meteredFetch(meter);

const sourceFetch: typeof fetch = async (input, init) => {
  meter.sourceRequests++;
  const res = await fetch(input, init);
  const len = Number(res.headers.get('content-length') ?? 0);
  meter.sourceBytes += len;
  return res;
};

/** The http source never calls the GitHub client. */
const noClient: SourceClient = {
  request: async () => {
    throw new Error('the backfill bench reads no GitHub source');
  },
};

/** Largest heap / external memory seen by a sampler (RSS is the kernel's maxRSS). */
const peak = { heapUsed: 0, heapTotal: 0, external: 0, rss: 0, rssPhase: '' };
/** The run's phase, for the sampler: the last progress line (shortened). */
let phase = 'start';
function sample() {
  const m = process.memoryUsage();
  peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal);
  peak.external = Math.max(peak.external, m.external); // includes ArrayBuffers
  if (m.rss > peak.rss) {
    peak.rss = m.rss;
    peak.rssPhase = phase;
  }
}

/** Heap and off-heap (ArrayBuffer) bytes in use. */
const inUse = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
const mark = { start: 0, sourceRead: 0 };

/**
 * The run's log: on the projection's summary line (every item read and reduced, before the commit ends),
 * a full GC measures what the run holds at that point; BACKFILL_LOG also prints progress on stderr.
 */
function progress(line: string) {
  phase = line.replace(/http:\/\/[^ ]+ /, '').slice(0, 80);
  if (/^\[items\] \d+ item\(s\):/.test(line)) {
    gc();
    mark.sourceRead = inUse() - mark.start;
  }
  if (!process.env.BACKFILL_LOG) return;
  if (!/page (\d*00|1):/.test(line) && line.includes(' page ')) return;
  console.error(`${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB ${line}`);
}

/**
 * Peak RSS of this process image (KiB): VmHWM from /proc/self/status on Linux. Not
 * `process.resourceUsage().maxRSS`: Linux carries the high-water RSS of the forked parent over the exec into
 * the child's ru_maxrss, so a child spawned by a big parent (here the emulator holding 100 MB of blobs)
 * reports at least the parent's RSS. Elsewhere: the largest RSS the 50 ms sampler saw.
 */
function peakRssKiB(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // not Linux
  }
  return Math.round(peak.rss / 1024);
}

function gc() {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
}

/** The old runner: every change of the projection collected, then one commit. */
async function collect(spec: Spec, store: RefStore): Promise<{ written: number; version: string | null }> {
  const documents = new DocumentStore(store);
  // As the old runner did: the tip first (its listing when there is one; a backfill into a new section has none).
  const tip = await store.head();
  const existing = new Map<string, string>();
  if (tip) for (const e of (await store.list({ version: tip })).entries) existing.set(e.key, e.blobSha);
  const p = spec.projections[0] as Spec['projections'][number];
  const reducer = await loadReducer(p, '.', spec.file);
  const budget = new RateBudget(0);
  const run = await runProjection({
    p,
    specFile: spec.file,
    mode: 'backfill',
    reducer,
    fingerprint: fingerprintOf(p, reducer),
    stateKey: stateKey(p.name),
    oldState: undefined,
    existing,
    claimed: new Map(),
    shard: undefined,
    tokenIdentity: undefined,
    read: {
      client: budgetedClient(noClient, budget),
      budget,
      perPage: 100,
      apiUrl: 'https://api.github.com',
      fetch: sourceFetch,
      env: {},
      workspace: '.',
      log: progress,
    },
  });
  const ops: DocumentOp[] = [...run.changes, ...(run.state ? [run.state] : [])];
  const write = await documents.commit(ops, { message: 'docdb: backfill items (collected)' });
  return { written: write.written.length, version: write.version };
}

/**
 * Diagnosis (BACKFILL_DIAG, not part of the reported runs): `no-remember` skips the store's caching of the
 * trees it built at the end of a write (`ObjectWriter.rememberOwnTrees`, src/stores/remote-api/object-writer.ts),
 * `trace-remember` prints the heap held before and after it (after a full GC), to tell the end-of-write peak
 * from the streaming itself.
 */
function diagnose(mode: string | undefined) {
  if (!mode) return;
  const proto = ObjectWriter.prototype as unknown as Record<string, (...a: unknown[]) => Promise<void>>;
  const original = proto.rememberOwnTrees as (...a: unknown[]) => Promise<void>;
  if (mode === 'no-remember') proto.rememberOwnTrees = async () => {};
  else if (mode === 'trace-remember') {
    proto.rememberOwnTrees = async function (this: unknown, ...a: unknown[]) {
      gc();
      const before = process.memoryUsage().heapUsed;
      await original.apply(this, a);
      gc();
      const after = process.memoryUsage().heapUsed;
      console.error(`rememberOwnTrees: ${(a[1] as unknown[]).length} changes, heap held ${before} → ${after}`);
    };
  } else throw new Error(`unknown BACKFILL_DIAG ${mode}`);
}

async function main() {
  diagnose(process.env.BACKFILL_DIAG);
  const [variant, api, repo, dataUrl, pagesRaw, perRaw] = process.argv.slice(2) as string[];
  const pages = Number(pagesRaw);
  const per = Number(perRaw);
  const spec = parseSpec(backfillSpec(dataUrl as string, pages), 'bench-backfill.yml');
  const remote = new RemoteApiRefStore({
    transport: fetchTransport({ fetch: countingFetch }),
    apiUrl: api as string,
    owner: 'bench',
    repo: repo as string,
    token: BACKFILL_TOKEN,
  });
  // `gathered`: the same store without commitParts (bound methods keep its private fields reachable).
  const store: RefStore =
    variant === 'gathered'
      ? new Proxy(remote, {
          get(target, prop) {
            if (prop === 'commitParts') return undefined;
            const v = Reflect.get(target, prop, target);
            return typeof v === 'function' ? v.bind(target) : v;
          },
        })
      : remote;
  gc();
  const heapStart = process.memoryUsage().heapUsed;
  mark.start = inUse();
  const timer = setInterval(sample, 50);
  const start = performance.now();
  let written: number;
  let version: string | null;
  let report: unknown;
  if (variant === 'collect') ({ written, version } = await collect(spec, store));
  else if (variant === 'streamed' || variant === 'gathered') {
    const r = await runProjections({
      spec,
      client: noClient,
      store,
      mode: 'backfill',
      fetch: sourceFetch,
      env: {},
      log: progress,
    });
    report = r;
    written = r.written.length;
    version = r.version;
  } else throw new Error(`unknown variant ${variant}`);
  const ms = performance.now() - start;
  clearInterval(timer);
  sample();
  // What the run still holds at its end (the report with its key lists, the store's caches), after a full GC.
  gc();
  const heapEnd = process.memoryUsage().heapUsed;
  if (written !== pages * per) throw new Error(`${variant}: wrote ${written} documents, expected ${pages * per}`);
  console.log(
    JSON.stringify({
      variant,
      n: pages * per,
      ...meter,
      ms,
      version,
      maxRssKiB: peakRssKiB(),
      ruMaxRssKiB: process.resourceUsage().maxRSS,
      peakHeapUsed: peak.heapUsed,
      peakExternal: peak.external,
      peakHeapTotal: peak.heapTotal,
      peakRssPhase: peak.rssPhase,
      retainedHeap: heapEnd - heapStart,
      heldWhenRead: mark.sourceRead,
      reportKept: report !== undefined,
    }),
  );
}

if (process.argv[1]?.endsWith('backfill-worker.ts')) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
