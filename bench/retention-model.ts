/**
 * The simulated section of the retention benchmark (bench/retention.ts), pure and deterministic: which
 * documents an hourly run changes (seeded PRNG), what a document's bytes are at each of its versions (the
 * real canonical envelope at the real canonical key, `documentChange`), and which commits each retention
 * policy of issue 31 keeps. No I/O here; bench/retention-import.ts turns it into git objects.
 */

import { seededRandom } from '../src/core/seeded-random.js';
import { documentChange } from '../src/document/envelope.js';

/** Hour 0 of the simulated year (a fixed instant: the same bytes on every run). */
export const START_SECONDS = Date.UTC(2025, 0, 1) / 1000;
const HOUR = 3600;

export const prng = seededRandom;

/** A 32-bit mix of two integers (for per-document, per-version values without keeping them). */
function mix(x: number, y: number): number {
  let h = Math.imul(x ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(y + 0x7f4a7c15, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

const WORDS = (
  'data graph fast tiny cloud native build test parse query index cache store sync stream async ' +
  'client server plugin engine render layout schema config deploy monitor metric vector search'
).split(' ');
const LANGUAGES = ['TypeScript', 'Go', 'Rust', 'Python', 'Java', 'C', 'Ruby', 'Kotlin'];
const LICENSES = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'GPL-3.0', 'MPL-2.0'];

function words(seed: number, n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(WORDS[mix(seed, k) % WORDS.length] as string);
  return out.join(' ');
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The document id of document `i`: the documented `owner/name` form, `perDir` documents per owner, so the
 * key `github/repo/<owner>/<name>.json` puts each owner's documents in one subtree (as a section of
 * repositories does). `perDir` 0: a flat id, every document in one 'github/repo' tree.
 */
export function documentId(i: number, perDir: number): string {
  return perDir > 0 ? `org-${Math.floor(i / perDir)}/project-${i}` : `project-${i}`;
}

/**
 * The key and stored bytes of document `i` at `version` (0 = as first written), last changed in the hourly
 * run `changedAt`: a scraped repository, ~0.6 KB of canonical envelope. A new version changes what a scrape
 * of a repository sees change (counters and timestamps); the descriptive fields stay.
 *
 * @example
 * const { key, value } = documentBytes(7, 0, 0, 100); // key 'github/repo/org-0/project-7.json'
 */
export function documentBytes(i: number, version: number, changedAt: number, perDir: number) {
  const id = documentId(i, perDir);
  const seed = mix(i, 0);
  const grow = mix(i, version + 1);
  const created = START_SECONDS - HOUR * (24 * 30 + (seed % (24 * 3650)));
  const data = {
    name: id.slice(id.lastIndexOf('/') + 1),
    full_name: id,
    description: words(seed, 5 + (seed % 6)),
    language: LANGUAGES[seed % LANGUAGES.length],
    license: LICENSES[(seed >>> 3) % LICENSES.length],
    topics: words(seed + 2, 2 + (seed % 3)).split(' '),
    archived: false,
    default_branch: 'main',
    created_at: iso(created),
    pushed_at: iso(START_SECONDS + HOUR * changedAt - (grow % HOUR)),
    updated_at: iso(START_SECONDS + HOUR * changedAt),
    stargazers_count: (seed % 5000) + version * 3 + (grow % 3),
    forks_count: (seed % 700) + Math.floor(version / 2),
    open_issues_count: (seed % 90) + (grow % 17),
    size_kb: (seed % 90_000) + version * 11,
  };
  return documentChange({ namespace: 'github', type: 'repo', id, data });
}

/**
 * The documents an hourly run changes: `round(docs × churn)` distinct documents, drawn by `next`.
 *
 * @example
 * changedInRun(prng(1), 10_000, 0.01, stamp, 1); // 100 distinct indexes in [0, 10,000)
 */
export function changedInRun(
  next: () => number,
  docs: number,
  churn: number,
  stamp: Int32Array,
  run: number,
): number[] {
  const k = Math.max(1, Math.round(docs * churn));
  const out: number[] = [];
  // Rejection sampling with a per-run stamp: O(k) for k ≤ docs/2, no set to allocate per run.
  while (out.length < k) {
    const i = Math.floor(next() * docs);
    if (stamp[i] === run + 1) continue;
    stamp[i] = run + 1;
    out.push(i);
  }
  return out;
}

/** A retention policy: the hourly runs (0-based, ascending) whose states a compacted history keeps. */
export interface Policy {
  name: string;
  label: string;
  /** Hourly commits kept before any thinning. */
  window: number;
  /** Hours between two thinned commits (1: no thinning). */
  period: number;
  keep(commits: number): number[];
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);

/** The last run of each `period` hours before `before` (the state at the end of each day or week). */
function thinned(before: number, period: number): number[] {
  const out: number[] = [];
  for (let run = 0; run < before; run++) if ((run + 1) % period === 0 || run === before - 1) out.push(run);
  return out;
}

/**
 * Keep the last `window` hourly commits.
 *
 * @example
 * keepLast(720).keep(8760); // runs 8040 … 8759
 */
export function keepLast(window: number, label = `keep last ${window} commits`): Policy {
  return { name: `keep-${window}`, label, window, period: 1, keep: (c) => range(Math.max(0, c - window), c) };
}

/**
 * Only the thinned part of a policy: the last run of every `period` hours (a part of a thinned policy,
 * measured on its own when the whole is too large: bench/retention.ts).
 *
 * @example
 * thinnedOnly(24).keep(72); // [23, 47, 71]
 */
export function thinnedOnly(period: number): Policy {
  return {
    name: `thinned-${period}`,
    label: `1 every ${period} h`,
    window: 0,
    period,
    keep: (c) => thinned(c, period),
  };
}

/** A history of one commit, the first state: what the parts of a composed figure each hold once. */
export const FIRST_STATE: Policy = { name: 'first-state', label: 'one commit', window: 0, period: 1, keep: () => [0] };

/**
 * The policies of issue 31, run `commits` hourly runs (run 0 writes every document). A compacted history
 * is one root commit holding the tree of the first kept run, then every kept run re-created on it.
 */
export const POLICIES: readonly Policy[] = [
  { name: 'none', label: 'no retention', window: 0, period: 1, keep: (commits) => range(0, commits) },
  keepLast(720, 'keep last 720 commits (30 days)'),
  {
    name: 'days-30-daily',
    label: 'keep 30 days, 1 a day before',
    window: 720,
    period: 24,
    keep: (c) => [...thinned(Math.max(0, c - 720), 24), ...range(Math.max(0, c - 720), c)],
  },
  {
    name: 'days-7-weekly',
    label: 'keep 7 days, 1 a week before',
    window: 168,
    period: 168,
    keep: (c) => [...thinned(Math.max(0, c - 168), 168), ...range(Math.max(0, c - 168), c)],
  },
];

/** The committer time of hourly run `run`. */
export const runSeconds = (run: number) => START_SECONDS + HOUR * run;
