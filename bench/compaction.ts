/**
 * Issue 31's first budget, measured: compact a section of 8,760 hourly commits (a year) to the last 720
 * over the GitHub API — the emulator with GitHub's secondary limits ON (80 content-creating requests a
 * minute, 500 an hour) on a virtual clock, so the minutes reported are the wall time those limits imply
 * (requests taking no time; add GitHub's own latency). Rows:
 *  1. the compaction: requests (budget 720 + 10), content-creating requests, secondary-limit answers;
 *  2. the same compaction cut off after 360 of its 720 commits (the network goes away): the section must be
 *     untouched;
 *  3. a re-run right after it (its pacer cannot see the cut-off run's requests, still in GitHub's windows);
 *  4. a re-run an hour later instead.
 * The section is checked after each row: `compacted` means 720 commits on a root, each with its original's
 * tree; `untouched` means every original commit still there. Scenario: bench/compaction-world.ts (the test
 * __tests__/retention/compact-budget.test.ts runs it at 876 → 72).
 *   npx tsx bench/compaction.ts [--quick (876 → 72), written to the temp directory] → bench/results/compaction.json and .md
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CompactionFile, type CompactionRow, compactionTable } from './compaction-table.js';
import { type CompactionWorld, compactionWorld, compactOnce, sectionNow } from './compaction-world.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const COMMITS = quick ? 876 : 8760;
const KEEP = quick ? 72 : 720;
const CUT = KEEP / 2;

/** What the section is now, checked against the original history. */
function sectionState(w: CompactionWorld): CompactionRow['section'] {
  const { chain, treeOf } = sectionNow(w);
  if (chain.length === w.original.length && chain.every((c, i) => c === w.original[i])) return 'untouched';
  const same = chain.length === KEEP && chain.every((c, i) => treeOf(c) === treeOf(w.original[i] as string));
  const root =
    chain.length > 0 && w.app.state.repo('octo/data').db.getCommit(chain.at(-1) as string).parents.length === 0;
  return same && root ? 'compacted' : 'other';
}

async function row(scenario: string, w: CompactionWorld, cutAfter?: number): Promise<CompactionRow> {
  const t0 = performance.now();
  const { result: _, error, ...run } = await compactOnce(w, KEEP, cutAfter);
  const wallMs = Math.round(performance.now() - t0);
  const out: CompactionRow = { scenario, ...run, wallMs, ...(error ? { error } : {}), section: sectionState(w) };
  process.stderr.write(`${JSON.stringify(out)}\n`);
  return out;
}

const full = compactionWorld(COMMITS);
const rows = [await row(`compaction of ${COMMITS.toLocaleString('en-US')} commits`, full)];
const cut = compactionWorld(COMMITS);
rows.push(await row(`cut off after ${CUT} of its ${KEEP} commits`, cut, CUT));
rows.push(await row('re-run right after the cut-off', cut));
const later = compactionWorld(COMMITS);
await compactOnce(later, KEEP, CUT);
await later.clock.sleep(3_600_000);
rows.push(await row('re-run an hour after a cut-off', later));

const file: CompactionFile = {
  date: new Date().toISOString(),
  node: process.version,
  commits: COMMITS,
  keep: KEEP,
  cutAfter: CUT,
  limits: full.pacing,
  rows,
};
const md = compactionTable(file);
console.log(md);
// A quick run proves the pipeline; its figures are not the table's: it never replaces the committed results.
const base = quick ? join(tmpdir(), 'docdb-compaction-quick') : join(here, 'results', 'compaction');
mkdirSync(dirname(base), { recursive: true });
writeFileSync(`${base}.json`, `${JSON.stringify(file, null, 2)}\n`);
writeFileSync(`${base}.md`, `${md}\n`);
console.log(`wrote ${base}.json`);
