/**
 * Shard fan-out figures for issue 30 (timings live in bench/, never in tests), with the emulator's secondary
 * limits ON (GitHub's figures) on a virtual clock: an Actions matrix of n jobs on one section
 * (bench/shard-matrix.ts: each job the Action's engine in process, on a runner of its own, spaced as on
 * GitHub), with `shard-commit: direct` (every shard commits to the section and retries lost races) and with
 * `shard-commit: merge` followed by one `mode: merge` job. Counted at the emulator: content-creating
 * requests as it counts them (mutating REST, GraphQL mutations; a refused one created nothing), rejected
 * ref updates (a lost race), secondary-limit answers, requests a job sent before a `retry-after` it was
 * given, and whether the section then equals an unsharded run of the same data.
 * Run: npx tsx bench/shard-merge.ts [--quick]   → bench/results/shard-merge.json and .md
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentCreating, insideRetryAfter, limitedAnswers, shardMatrix } from './shard-matrix.js';
import { shardMergeTable } from './shard-merge-table.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const SHARDS = quick ? [4] : [16, 32];
const ROWS = 640;

async function scenario(n: number, way: 'direct' | 'merge') {
  const started = performance.now();
  const r = await shardMatrix({ shards: n, way, rows: ROWS, ...(way === 'merge' ? { notify: 'docdb-merged' } : {}) });
  const ms = Math.round(performance.now() - started);
  const all = [...r.shardLog, ...r.mergeLog];
  const jobs = [...r.shards, ...(r.merge ? [r.merge] : [])];
  const failures: Record<string, number> = {};
  for (const s of r.shards) if (!s.ok) failures[s.error ?? '?'] = (failures[s.error ?? '?'] ?? 0) + 1;
  const sentEarly = jobs.reduce((a, j) => a + j.sentEarly, 0);
  return {
    shards: n,
    way,
    landed: r.shards.filter((s) => s.ok).length,
    failures,
    failedDefinite: r.shards.filter((s) => !s.ok && s.definite).length,
    merged: r.merge ? r.merge.ok : null,
    documents: [...r.section.keys()].filter((k) => !k.startsWith('_docdb/')).length,
    sameAsUnsharded:
      r.section.size === r.direct.size && [...r.direct].every(([path, text]) => r.section.get(path) === text),
    contentCreating: contentCreating(all).length,
    contentCreatingShards: contentCreating(r.shardLog).length,
    contentCreatingMerge: contentCreating(r.mergeLog).length,
    budget: 3 * n + 5,
    lostRaces: all.filter((e) => e.path.includes('/git/refs') && e.status === 422).length,
    secondaryLimitAnswers: limitedAnswers(all).length,
    sentBeforeTheirRetryAfter: sentEarly,
    insideAnotherJobsWindow: insideRetryAfter(all).length - sentEarly,
    shardRefsLeft: r.shardRefsLeft.length,
    requests: all.length,
    virtualMinutes: Math.round(r.virtualMinutes * 10) / 10,
    wallMs: ms,
  };
}

const results = [];
for (const n of SHARDS) for (const way of ['direct', 'merge'] as const) results.push(await scenario(n, way));
console.table(results);
const file = { date: new Date().toISOString(), node: process.version, quick, rows: ROWS, results };
const md = shardMergeTable(file);
console.log(md);
const out = resolve(here, 'results/shard-merge.json');
writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
writeFileSync(resolve(here, 'results/shard-merge.md'), `${md}\n`);
console.log(`wrote ${out}`);
