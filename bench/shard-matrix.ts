/**
 * An Actions matrix of n shards on one section, in process, against the emulator with GitHub's secondary
 * limits ON (80 content-creating requests a minute, 500 an hour, per token) on a virtual clock
 * (bench/virtual-clock.ts: hours of rate-limit windows pass in seconds, nothing waits for real). Shared by
 * bench/shard-merge.ts (the figures) and __tests__/action/shard-budget.test.ts (the budget asserted).
 *
 * Each job runs the Action's engine (`runAction` from src/) with its stores on the virtual clock, spaced as
 * on GitHub (one mutating request a second per job: pacing.ts) and — as separate runners are — with a
 * pacing gate of its own (its own API origin, by its port: gates are per origin and token), so n jobs burst
 * together as a real matrix does. A round is: the section as an earlier direct run left it, new data (some
 * rows changed, some gone, some new), the n shard jobs concurrently (`shard-commit: merge`, or `direct`:
 * every shard commits to the section), the merge job (`mode: merge`), and the same data run unsharded on a
 * second section ("direct") for comparison.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInputs } from '../src/action/inputs.js';
import { runAction } from '../src/action/run-action.js';
import { fromUtf8 } from '../src/core/bytes.js';
import { DocDbError } from '../src/core/errors.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { createEmulatorApp, type EmulatorApp, type RequestLogEntry } from '../src/emulator/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import type { HttpTransport } from '../src/transport/types.js';
import { virtualClock } from './virtual-clock.js';

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);
/** Matrices made in this process: each gets a token of its own (pacing gates are per token and process-wide). */
let matrices = 0;
const OWNER = 'octo';
const NAME = 'fanout';
const REPO = `${OWNER}/${NAME}`;
/** GitHub's best-practice spacing of mutating requests, per job (pacing.ts). */
const SPACING_MS = 1000;

export interface MatrixOptions {
  shards: number;
  way: 'direct' | 'merge';
  /** Rows of the data (documents of the section). */
  rows: number;
  /** `notify:` of the merge job (a repository_dispatch when it changed something). */
  notify?: string;
}

/** One job's end: landed, or the typed error it failed with; requests it sent before a `retry-after` it was given. */
export interface JobEnd {
  ok: boolean;
  error?: string;
  message?: string;
  /** A failure that says nothing was written (`data.outcome: "not-applied"`). */
  definite?: boolean;
  sentEarly: number;
}

export interface MatrixRound {
  shards: JobEnd[];
  merge?: JobEnd & { outputs?: Record<string, string> };
  /** The emulator's log of the shard jobs and of the merge job. */
  shardLog: RequestLogEntry[];
  mergeLog: RequestLogEntry[];
  /** Every file of the section's tip, and of the unsharded run's ("direct"), path → text. */
  section: Map<string, string>;
  direct: Map<string, string>;
  /** Shard refs still there after the merge. */
  shardRefsLeft: string[];
  /** Virtual minutes the shards and the merge took. */
  virtualMinutes: number;
  app: EmulatorApp;
}

/** Content-creating requests as the emulator counts them (rations.ts), refused ones excluded: they created nothing. */
export const contentCreating = (log: readonly RequestLogEntry[]) => log.filter((r) => r.contentCreating && !r.limited);
/** Secondary-limit answers. */
export const limitedAnswers = (log: readonly RequestLogEntry[]) => log.filter((r) => r.limited);
/** Requests sent before a `retry-after` the emulator gave had passed (per token, every job together). */
export const insideRetryAfter = (log: readonly RequestLogEntry[]) => log.filter((r) => r.insideRetryAfter);

function csv(rows: readonly [string, string][]): string {
  return `key,value\n${rows.map(([k, v]) => `${k},${v}`).join('\n')}\n`;
}

/** The first data, and the next: every 5th row changed, every 7th gone, a tenth more rows new. */
function data(n: number): { first: [string, string][]; next: [string, string][] } {
  const first = Array.from({ length: n }, (_, i): [string, string] => [`k${i}`, `v${i % 13}`]);
  const next = first
    .filter((_, i) => i % 7 !== 3)
    .map(([k, v], i): [string, string] => [k, i % 5 === 0 ? `w${i % 11}` : v]);
  for (let i = n; i < n + Math.ceil(n / 10); i++) next.push([`k${i}`, `v${i % 13}`]);
  return { first, next };
}

/** Run one round (see the module header). */
export async function shardMatrix(o: MatrixOptions): Promise<MatrixRound> {
  const TOKEN = `ghp_BenchShardMatrix${String(++matrices).padStart(6, '0')}abcdef0123456789`;
  // The earlier run and the unsharded comparison: another workflow's token, so the matrix's budget starts full.
  const OTHER = `${TOKEN.slice(0, -4)}beef`;
  const clock = virtualClock(T0);
  const app = createEmulatorApp({ now: clock.now, secondaryLimits: true });
  app.state.createRepo(REPO);
  app.state.addToken(TOKEN, { login: OWNER, rateLimit: 100_000_000 });
  app.state.addToken(OTHER, { login: OWNER, rateLimit: 100_000_000 });
  const cwd = mkdtempSync(join(tmpdir(), 'docdb-shard-matrix-'));
  mkdirSync(join(cwd, '.github'));
  writeFileSync(
    join(cwd, '.github/docdb.yml'),
    'projections:\n  rows:\n    source: { type: files, glob: rows.csv }\n    identity: { id: "{item.key}" }\n    prune: true\n    index: [data.value]\n',
  );
  const { first, next } = data(o.rows);
  let jobs = 0;
  /** One job of the workflow run: its own "runner" (API origin, so its own pacing gate), the virtual clock. */
  const job = async (
    given: Record<string, string>,
    token = TOKEN,
  ): Promise<JobEnd & { outputs?: Record<string, string> }> => {
    const host = `http://127.0.0.1:${10_000 + ++jobs}`;
    const trace = { sentEarly: 0, notBefore: 0 };
    const transport = traced(clock.track(fetchTransport({ fetch: app.fetchFunction })), clock.now, trace);
    const storeOn = (ref: string, startAt?: string) =>
      new RemoteApiRefStore({
        transport,
        apiUrl: host,
        owner: OWNER,
        repo: NAME,
        ref,
        token,
        now: clock.now,
        sleep: clock.sleep,
        random: seededRandom(jobs),
        mutationSpacingMs: SPACING_MS,
        ...(startAt ? { startAt } : {}),
      });
    const values: Record<string, string> = { token, 'api-url': host, repository: REPO, ...given };
    try {
      const { outputs } = await runAction(
        readInputs((k) => values[k] ?? '', {}),
        {
          workspace: cwd,
          writeSpacingMs: 0,
          run: { id: 4711, attempt: 1 },
          storeOn,
          fetch: clock.trackFetch(app.fetchFunction),
          log: () => {},
        },
      );
      return { ok: true, outputs, sentEarly: trace.sentEarly };
    } catch (e) {
      const error = e instanceof DocDbError ? e.code : 'untyped';
      const definite = e instanceof DocDbError && e.data.outcome === 'not-applied';
      return { ok: false, error, message: String((e as Error)?.message), definite, sentEarly: trace.sentEarly };
    }
  };
  try {
    writeFileSync(join(cwd, 'rows.csv'), csv(first));
    for (const section of ['fan', 'direct']) {
      const r = await job({ section }, OTHER);
      if (!r.ok) throw new Error(`the first direct run failed: ${r.message}`);
    }
    writeFileSync(join(cwd, 'rows.csv'), csv(next));
    const from = clock.now();
    app.clearLog();
    const shards = await Promise.all(
      Array.from({ length: o.shards }, (_, i) =>
        job({
          section: 'fan',
          shard: `${i + 1}/${o.shards}`,
          ...(o.way === 'merge' ? { 'shard-commit': 'merge' } : {}),
        }),
      ),
    );
    const shardLog = [...app.requests];
    app.clearLog();
    const merge =
      o.way === 'merge'
        ? await job({
            section: 'fan',
            mode: 'merge',
            shards: String(o.shards),
            ...(o.notify ? { notify: o.notify } : {}),
          })
        : undefined;
    const mergeLog = [...app.requests];
    const virtualMinutes = (clock.now() - from) / 60_000;
    const r = await job({ section: 'direct' }, OTHER);
    if (!r.ok) throw new Error(`the unsharded run failed: ${r.message}`);
    const db = app.state.repo(REPO).db;
    const shardRefsLeft = Array.from({ length: o.shards }, (_, i) => `refs/docdb/fan.shards/${i + 1}`).filter(
      (ref) => db.readRef(ref) !== undefined,
    );
    return {
      shards,
      ...(merge ? { merge } : {}),
      shardLog,
      mergeLog,
      section: filesOf(app, 'refs/docdb/fan'),
      direct: filesOf(app, 'refs/docdb/direct'),
      shardRefsLeft,
      virtualMinutes,
      app,
    };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** A job's transport that counts the requests it sent before a `retry-after` it was given had passed. */
function traced(
  inner: HttpTransport,
  now: () => number,
  trace: { sentEarly: number; notBefore: number },
): HttpTransport {
  return {
    async request(req) {
      if (now() < trace.notBefore) trace.sentEarly++;
      const res = await inner.request(req);
      const after = res.headers['retry-after'];
      if ((res.status === 403 || res.status === 429) && after !== undefined) {
        trace.notBefore = Math.max(trace.notBefore, now() + Number(after) * 1000);
      }
      return res;
    },
  };
}

/** Every file of a ref's tip tree (path → text). */
function filesOf(app: EmulatorApp, ref: string): Map<string, string> {
  const db = app.state.repo(REPO).db;
  const tip = db.readRef(ref);
  const out = new Map<string, string>();
  if (!tip) return out;
  for (const e of db.flattenTree(db.getCommit(tip).tree))
    if (e.type === 'blob') out.set(e.path, fromUtf8(db.getBlob(e.sha)));
  return out;
}
