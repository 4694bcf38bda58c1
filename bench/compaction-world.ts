/**
 * The compaction scenario of issue 31's first budget, shared by bench/compaction.ts (8,760 → 720) and
 * __tests__/retention/compact-budget.test.ts (876 → 72): a section of N hourly commits written straight into
 * the emulator's state (small trees: a run's log file and a state file), then `compactSection` over the
 * GitHub API with the emulator's secondary limits ON and the compaction's own pacing, on a virtual clock
 * (bench/virtual-clock.ts: time passes only while someone waits, so the minutes it reports are the wall time
 * GitHub's limits imply, with requests taking no time). A compaction can be cut off after k commits: the
 * network goes away (every later request fails as `fetch` does when a connection is refused).
 */

import { createEmulatorApp, type EmulatorApp, type SecondaryLimitFigures } from '../src/emulator/index.js';
import { isGraphqlMutation } from '../src/emulator/rations.js';
import { type CompactResult, compactSection, type PacingLimits } from '../src/retention/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import { type VirtualClock, virtualClock } from './virtual-clock.js';

export const REF = 'refs/docdb/documents';
const REPO = 'octo/data';
const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

let worlds = 0;

export interface CompactionWorld {
  app: EmulatorApp;
  /** The world's own token: a process shares one rate-limit gate per token (core/rate-gate.ts). */
  token: string;
  clock: VirtualClock;
  /** The section's commits as written, newest first (the tip first). */
  original: string[];
  /** The pacing the compactions use (GitHub's figures, or scaled down with the emulator's). */
  pacing: PacingLimits;
}

/**
 * A section of `commits` commits in an emulator whose secondary limits are `limits` (GitHub's by default).
 *
 * @example
 * const w = compactionWorld(8760);
 */
export function compactionWorld(commits: number, limits: Partial<SecondaryLimitFigures> = {}): CompactionWorld {
  const clock = virtualClock(T0);
  const app = createEmulatorApp({ now: clock.now, secondaryLimits: limits });
  app.state.createRepo(REPO);
  const token = `ghp_compaction${String(++worlds).padStart(26, '0')}`;
  app.state.addToken(token, { login: 'octo', repos: '*', rateLimit: 10_000_000 });
  const original: string[] = [];
  for (let i = 0; i < commits; i++) {
    const sha = app.state.commitFiles(REPO, {
      branch: REF,
      orphan: i === 0,
      files: { [`log/${i % 24}.json`]: `{"run":${i}}`, 'state.json': `{"n":${i}}` },
      message: `run ${i}`,
    });
    original.unshift(sha);
  }
  const f = app.secondaryLimits!;
  return { app, token, clock, original, pacing: { perMinute: f.contentPerMinute, perHour: f.contentPerHour } };
}

/** What one compaction sent and was answered (client side), and how it ended. */
export interface CompactionRun {
  requests: number;
  listPages: number;
  createCommit: number;
  graphqlQueries: number;
  graphqlMutations: number;
  refReads: number;
  /** REST writes and GraphQL mutations that were admitted (GitHub's "content-generating" requests). */
  contentCreating: number;
  /** Answers that were a secondary rate limit (403/429 from the emulator's rations). */
  secondaryLimitAnswers: number;
  /** Requests sent inside a retry-after window the emulator had announced (a polite client sends none). */
  insideRetryAfter: number;
  /** Virtual minutes from the first request to the end. */
  minutes: number;
  result?: CompactResult;
  /** The error's code when the compaction failed. */
  error?: string;
}

/**
 * Compact the world's section to its newest `keep` commits with a new store (as a new process would);
 * `cutAfterCommits`: the network goes away once that many `POST /git/commits` were answered.
 *
 * @example
 * const run = await compactOnce(w, 720);
 */
export async function compactOnce(
  w: CompactionWorld,
  keep: number,
  cutAfterCommits = Number.POSITIVE_INFINITY,
): Promise<CompactionRun> {
  const start = w.clock.now();
  const logFrom = w.app.requests.length;
  const sent: { method: string; path: string; mutation: boolean; status: number }[] = [];
  let commitsAnswered = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (commitsAnswered >= cutAfterCommits) throw new TypeError('fetch failed: connect ECONNREFUSED (cut off)');
    const req = new Request(input, init);
    const body = new Uint8Array(await req.clone().arrayBuffer());
    const path = new URL(req.url).pathname;
    const res = await w.app.fetch(req);
    sent.push({
      method: req.method,
      path,
      mutation: path === '/graphql' && isGraphqlMutation(body),
      status: res.status,
    });
    if (req.method === 'POST' && path.endsWith('/git/commits') && res.status === 201) commitsAnswered++;
    return res;
  };
  const store = new RemoteApiRefStore({
    transport: w.clock.track(fetchTransport({ fetch })),
    apiUrl: 'http://127.0.0.1:9', // never dialled: every request goes to the in-process emulator
    owner: 'octo',
    repo: 'data',
    token: w.token,
    now: w.clock.now,
    sleep: w.clock.sleep,
  });
  const run: Pick<CompactionRun, 'result' | 'error'> = {};
  try {
    run.result = await compactSection(
      store,
      { keepCommits: keep },
      { now: w.clock.now, sleep: w.clock.sleep, pacing: w.pacing },
    );
  } catch (e) {
    run.error = (e as { code?: string }).code ?? String(e);
  }
  const log = w.app.requests.slice(logFrom);
  return {
    ...run,
    requests: sent.length,
    listPages: sent.filter((s) => s.method === 'GET' && s.path.endsWith('/commits')).length,
    createCommit: sent.filter((s) => s.method === 'POST' && s.path.endsWith('/git/commits')).length,
    graphqlQueries: sent.filter((s) => s.path === '/graphql' && !s.mutation).length,
    graphqlMutations: sent.filter((s) => s.mutation).length,
    refReads: sent.filter((s) => s.method === 'GET' && s.path.includes('/git/ref/')).length,
    contentCreating: sent.filter((s) => creates(s) && s.status !== 403 && s.status !== 429).length,
    secondaryLimitAnswers: log.filter((r) => r.limited).length,
    insideRetryAfter: log.filter((r) => r.insideRetryAfter).length,
    minutes: (w.clock.now() - start) / 60_000,
  };
}

/** A content-generating request: a REST write or a GraphQL mutation (the emulator's reading of GitHub's rule). */
const creates = (s: { method: string; path: string; mutation: boolean }) =>
  s.path === '/graphql' ? s.mutation : s.method !== 'GET' && s.method !== 'HEAD';

/** The section as it is now: its first-parent chain, newest first, and each commit's tree. */
export function sectionNow(w: CompactionWorld): { chain: string[]; treeOf: (sha: string) => string } {
  const db = w.app.state.repo(REPO).db;
  const chain: string[] = [];
  for (let c = db.readRef(REF); c; c = db.getCommit(c).parents[0]) chain.push(c);
  return { chain, treeOf: (sha) => db.getCommit(sha).tree };
}
