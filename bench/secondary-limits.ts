/**
 * Many writers against GitHub's secondary rate limits (issue 30 items 1–2), with the emulator's limits ON
 * (GitHub's figures: 80 content-creating requests a minute and 500 an hour per token, 900 REST points a
 * minute, 100 concurrent) on a virtual clock (bench/virtual-clock.ts): hours of rate-limit windows pass in
 * seconds, and the emulator can tell a request sent inside a `retry-after` window it announced.
 *  1. 16 RemoteApiRefStore writers × 50 puts (10 with --quick) on one section, one token, as an application
 *     that retries a failed put after the `retryAt` its typed error gives: writes lost, typed failures (all
 *     must be definite: `outcome: "not-applied"` and nothing of them in the section), secondary-limit
 *     answers, requests inside a retry-after window, virtual time taken.
 *  2. 32 concurrent runs of the Action (runAction, in process, direct mode, each its own projection) on one
 *     section: land or fail typed; requests of a run sent before a retry-after that run was given.
 *  3. A single first write of 10,000 documents (≈ 1.2 KB each, `DocumentStore.putMany`, GitHub's spacing of
 *     one mutating request a second): its requests and any secondary-limit answer.
 * The shard matrices (merge mode, with the same limits) are bench/shard-merge.ts.
 * In process, every writer is one process's: they share the pacing gate of their token (pacing.ts).
 * Run: npx tsx bench/secondary-limits.ts [--quick] → bench/results/secondary-limits.json and .md
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readInputs } from '../src/action/inputs.js';
import { runAction } from '../src/action/run-action.js';
import { DocDbError, RateLimited } from '../src/core/errors.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { DocumentStore } from '../src/document/document-store.js';
import { createEmulatorApp, DEMO_SEED, type EmulatorApp } from '../src/emulator/index.js';
import { applySeed } from '../src/emulator/seed.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import type { HttpTransport } from '../src/transport/types.js';
import { secondaryLimitsTable } from './secondary-limits-table.js';
import { type VirtualClock, virtualClock } from './virtual-clock.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const WRITERS = 16;
const PUTS = quick ? 10 : 50;
const RUNS = 32;
const FIRST_WRITE = 10_000;
const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);
const API = 'http://127.0.0.1:9'; // never dialled: every request goes to the in-process emulator
const WRITER_TOKEN = 'ghp_BenchTokenValue0123456789abcdefABCDEF';
const READER_TOKEN = 'ghp_BenchReaderValue0123456789abcdefABCD';

/** What the emulator saw: secondary-limit answers by limit, requests inside a retry-after, content creation. */
function emulatorView(app: EmulatorApp, from = 0) {
  const reqs = app.requests.slice(from);
  const limited: Record<string, number> = {};
  for (const r of reqs) if (r.limited) limited[r.limited] = (limited[r.limited] ?? 0) + 1;
  return {
    requests: reqs.length,
    contentCreating: reqs.filter((r) => r.method !== 'GET' && r.path !== '/graphql' && !r.limited).length,
    secondaryLimitAnswers: reqs.filter((r) => r.limited).length,
    byLimit: limited,
    insideRetryAfter: reqs.filter((r) => r.insideRetryAfter).length,
  };
}

function failureName(e: unknown): string {
  return e instanceof DocDbError ? e.code : `untyped: ${String(e)}`;
}

async function libraryWriters() {
  const clock = virtualClock(T0);
  const app = createEmulatorApp({ now: clock.now, secondaryLimits: true });
  app.state.createRepo('octo/data');
  app.state.addToken(WRITER_TOKEN, { login: 'octo', repos: '*', rateLimit: 10_000_000 });
  app.state.addToken(READER_TOKEN, { login: 'octo', repos: '*', rateLimit: 10_000_000 });
  const transport = clock.track(fetchTransport({ fetch: app.fetchFunction }));
  const mk = (token: string, seed: number) =>
    new RemoteApiRefStore({ transport, apiUrl: API, owner: 'octo', repo: 'data', token, ...clocked(clock, seed) });
  const t0 = performance.now();
  const failures: Record<string, number> = {};
  let indefinite = 0;
  const written: { key: string; value: string }[] = [];
  const failedAttempts: { key: string; value: string }[] = [];
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      const s = mk(WRITER_TOKEN, w + 1);
      for (let i = 0; i < PUTS; i++) {
        const key = `k/w${w}-${i}.json`;
        for (let attempt = 0; ; attempt++) {
          // Each attempt writes a value of its own: a failed attempt's value must never reach the section.
          const value = JSON.stringify({ w, i, attempt });
          try {
            await s.put(key, value);
            written.push({ key, value });
            break;
          } catch (e) {
            failures[failureName(e)] = (failures[failureName(e)] ?? 0) + 1;
            if (!(e instanceof DocDbError) || e.data.outcome !== 'not-applied') indefinite++;
            failedAttempts.push({ key, value });
            if (!(e instanceof DocDbError) || attempt >= 50) break;
            // As the error says: retry after retryAt (a lost race: at once).
            const at = e instanceof RateLimited ? Date.parse(String(e.data.retryAt)) : clock.now();
            await clock.sleep(Math.max(0, at - clock.now()));
          }
        }
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const view = emulatorView(app);
  const reader = mk(READER_TOKEN, 99);
  const stored = new Map<string, string>();
  for (const e of (await reader.list({ prefix: 'k/' })).entries) {
    const got = await reader.get(e.key);
    stored.set(e.key, new TextDecoder().decode(got?.value));
  }
  return {
    writers: WRITERS,
    putsEach: PUTS,
    landed: written.filter((x) => stored.get(x.key) === x.value).length,
    of: WRITERS * PUTS,
    lost: written.filter((x) => stored.get(x.key) !== x.value).length,
    typedFailures: failures,
    failuresNotDefinite: indefinite,
    failedValuesInSection: failedAttempts.filter((x) => stored.get(x.key) === x.value).length,
    ...view,
    virtualMinutes: Math.round((clock.now() - T0) / 60_000),
    wallMs: Math.round(wallMs),
  };
}

/** A store's injected clock, sleep and jitter, with no write spacing (the emulator is not GitHub's origin). */
function clocked(clock: VirtualClock, seed: number) {
  return { now: clock.now, sleep: clock.sleep, random: seededRandom(seed) };
}

/** One run's requests: when each was sent and, for a rate-limit answer, until when it was told to wait. */
interface RunTrace {
  sentEarly: number;
  notBefore: number;
}

function traced(clock: VirtualClock, trace: RunTrace, send: (url: string, init: RequestInit) => Promise<Response>) {
  return async (url: string, init: RequestInit) => {
    if (clock.now() < trace.notBefore) trace.sentEarly++;
    const res = await send(url, init);
    const after = res.headers.get('retry-after');
    if ((res.status === 403 || res.status === 429) && after !== null) {
      trace.notBefore = Math.max(trace.notBefore, clock.now() + Number(after) * 1000);
    }
    return res;
  };
}

async function actionRuns() {
  const clock = virtualClock(T0);
  const app = createEmulatorApp({ now: clock.now, secondaryLimits: true });
  applySeed(app.state, DEMO_SEED, 'demo');
  const dir = mkdtempSync(join(tmpdir(), 'docdb-bench-limits-'));
  const spec = `projections:\n${Array.from(
    { length: RUNS },
    (_, i) =>
      `  p${i}:\n    source: { type: repository, repositories: [octo-org/widgets] }\n    identity: { namespace: github, type: run${i}, id: "{owner}/{name}" }\n`,
  ).join('')}`;
  mkdirSync(join(dir, '.github'), { recursive: true });
  writeFileSync(join(dir, '.github/docdb.yml'), spec);
  const traces: RunTrace[] = [];
  const run = async (i: number) => {
    const trace: RunTrace = { sentEarly: 0, notBefore: 0 };
    traces.push(trace);
    const fetch = clock.trackFetch(
      traced(clock, trace, (url, init) => app.fetch(new Request(url, init))) as typeof globalThis.fetch,
    );
    const inputs: Record<string, string> = {
      token: 'ghp_demo_write',
      // Another name of the same in-process emulator: the Action's own Octokit (sources) measures time
      // on the real clock, the store on the virtual one, so they must not share a rate-limit gate.
      'api-url': 'http://localhost:9',
      repository: 'octo-org/widgets',
      section: 'bench-limits',
      projections: `p${i}`,
      mode: 'project',
      spec: '.github/docdb.yml',
      root: 'docdb',
      'commit-message': `run ${i}`,
    };
    const parsed = readInputs((n) => inputs[n] ?? '', { GITHUB_REPOSITORY: 'octo-org/widgets' });
    // The Action's store, on the virtual clock (the Action builds the same store over its Octokit).
    const transport: HttpTransport = fetchTransport({ fetch });
    const store = new RemoteApiRefStore({
      transport,
      apiUrl: API,
      owner: 'octo-org',
      repo: 'widgets',
      ref: 'refs/docdb/bench-limits',
      token: 'ghp_demo_write',
      ...clocked(clock, 1000 + i),
    });
    try {
      const { outputs } = await runAction(parsed, { workspace: dir, fetch, store, log: () => {} });
      return { ok: outputs.changed === 'true' };
    } catch (e) {
      return {
        ok: false,
        error: failureName(e),
        definite: e instanceof DocDbError && e.data.outcome === 'not-applied',
      };
    }
  };
  const t0 = performance.now();
  const runs = await Promise.all(Array.from({ length: RUNS }, (_, i) => run(i)));
  const wallMs = performance.now() - t0;
  const view = emulatorView(app);
  rmSync(dir, { recursive: true, force: true });
  const failed = runs.filter((r) => !r.ok);
  return {
    runs: RUNS,
    landed: runs.filter((r) => r.ok).length,
    failedTyped: failed.filter((r) => r.error && !r.error.startsWith('untyped')).length,
    failedDefinite: failed.filter((r) => r.definite).length,
    failures: failed.map((r) => r.error),
    requestsSentBeforeTheirRetryAfter: traces.reduce((a, t) => a + t.sentEarly, 0),
    ...view,
    virtualMinutes: Math.round((clock.now() - T0) / 60_000),
    wallMs: Math.round(wallMs),
  };
}

/** 10,000 documents in one first write, paced as on GitHub (one mutating request a second). */
async function firstWrite() {
  const clock = virtualClock(T0);
  const app = createEmulatorApp({ now: clock.now, secondaryLimits: true });
  app.state.createRepo('octo/data');
  app.state.addToken(WRITER_TOKEN, { login: 'octo', repos: '*', rateLimit: 10_000_000 });
  const store = new RemoteApiRefStore({
    transport: clock.track(fetchTransport({ fetch: app.fetchFunction })),
    apiUrl: 'http://127.0.0.1:8', // its own pacing gate
    owner: 'octo',
    repo: 'data',
    ref: 'refs/docdb/first-write',
    token: WRITER_TOKEN,
    ...clocked(clock, 7),
    mutationSpacingMs: 1000,
  });
  const text = 'x'.repeat(1100);
  const docs = Array.from({ length: FIRST_WRITE }, (_, i) => ({
    namespace: 'bench',
    type: 'item',
    id: `group-${i % 50}/item-${i}`,
    data: { i, salt: 'base', text },
  }));
  const t0 = performance.now();
  const r = await new DocumentStore(store).putMany(docs);
  const view = emulatorView(app);
  return {
    documents: FIRST_WRITE,
    landed: r.changed ? r.written.filter((k) => !k.startsWith('_docdb/')).length : 0,
    requests: view.requests,
    contentCreating: view.contentCreating,
    secondaryLimitAnswers: view.secondaryLimitAnswers,
    virtualSeconds: Math.round((clock.now() - T0) / 1000),
    wallMs: Math.round(performance.now() - t0),
  };
}

const result = {
  date: new Date().toISOString(),
  node: process.version,
  quick,
  library: await libraryWriters(),
  action: await actionRuns(),
  firstWrite: await firstWrite(),
};
const md = secondaryLimitsTable(result);
console.log(JSON.stringify(result, null, 2));
console.log(md);
const out = join(here, 'results', 'secondary-limits.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(join(here, 'results', 'secondary-limits.md'), `${md}\n`);
console.log(`wrote ${out}`);
