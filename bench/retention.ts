/**
 * The retention benchmark (issue 31, "Measure first"): how big does a year of hourly runs make a section,
 * and how much of that does each retention policy keep? For each number of documents and churn (share of
 * documents an hourly run changes), the year's history and each policy's compacted history are generated
 * with `git fast-import` into a local bare repository, repacked with `git repack -adf` and measured
 * (`git count-objects -v`, size-pack). Method and trade-offs: docs/retention-sizes.md.
 *
 * A history whose expected document versions exceed --max-blobs is measured at two shorter years (whole
 * weeks) and extrapolated linearly to the full year; one larger still is estimated from the smaller
 * section (see bench/retention-table.ts). Every figure says which.
 *
 *   npx tsx bench/retention.ts [--docs 10000,100000] [--churn 1,10 (percent)] [--commits 8760]
 *                              [--policies none,keep-720,days-30-daily,days-7-weekly] [--per-dir 100]
 *                              [--max-blobs 1000000] [--seed 1] [--check (also extrapolate measured cases)]
 *   npx tsx bench/retention.ts --quick     300 documents, 8 weeks, every policy and method: < 2 minutes
 *   npx tsx bench/retention.ts --render    only bench/results/retention.md, from the .json
 *   npx tsx bench/retention.ts … --out /tmp/part-a.json      a part, to run several at once (2 cores: at most 2)
 *   npx tsx bench/retention.ts … --reuse /tmp/part-a.json    take samples already measured there
 *   npx tsx bench/retention.ts --merge /tmp/part-a.json,/tmp/part-b.json    the parts into retention.json/.md
 * Writes bench/results/retention.json and .md (--quick: docdb-retention-quick.* in the temp directory). RETENTION_TMP: where the
 * temporary repositories go (default the OS temp directory; the largest take a few GB while they exist).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureHistory } from './retention-import.js';
import { FIRST_STATE, keepLast, POLICIES, type Policy, thinnedOnly } from './retention-model.js';
import { expectedBlobs, extrapolate, type Plan, planFor } from './retention-plan.js';
import {
  estimateTooLarge,
  type RetentionFile,
  type RetentionRow,
  retentionTable,
  type Sample,
} from './retention-table.js';

const here = dirname(fileURLToPath(import.meta.url));

interface Options {
  docs: number[];
  churn: number[];
  commits: number;
  policies: Policy[];
  perDir: number;
  maxBlobs: number;
  seed: number;
  check: boolean;
  quick: boolean;
}

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}

function numbers(name: string, fallback: number[]): number[] {
  const text = flag(name);
  if (text === undefined) return fallback;
  const xs = text.split(',').map(Number);
  if (xs.some((x) => !Number.isFinite(x) || x <= 0)) {
    throw new Error(`--${name} ${JSON.stringify(text)}: expected positive numbers separated by commas`);
  }
  return xs;
}

function options(): Options {
  const quick = process.argv.includes('--quick');
  const names = (flag('policies') ?? POLICIES.map((p) => p.name).join(',')).split(',');
  // The parts of a composed figure may be measured ahead, in another process, for --reuse.
  const known = [...POLICIES, thinnedOnly(24), thinnedOnly(168), FIRST_STATE];
  const policies = names.map((n) => {
    const p = known.find((q) => q.name === n);
    if (!p) throw new Error(`--policies: unknown "${n}"; known: ${known.map((q) => q.name).join(', ')}`);
    return p;
  });
  return {
    docs: numbers('docs', quick ? [300] : [10_000, 100_000]),
    churn: numbers('churn', [1, 10]).map((c) => c / 100),
    commits: numbers('commits', [quick ? 1344 : 8760])[0] as number,
    policies,
    perDir: Number(flag('per-dir') ?? 100),
    maxBlobs: numbers('max-blobs', [quick ? 25_000 : 1_000_000])[0] as number,
    seed: Number(flag('seed') ?? 1),
    check: process.argv.includes('--check'),
    quick,
  };
}

const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);

/** Samples of earlier runs (--reuse): the same history is never generated twice. */
const reused = new Map<string, Sample>();
const sampleKey = (o: Options, docs: number, churn: number, policy: string, commits: number) =>
  `${docs}/${churn}/${policy}/${commits}/${o.perDir}/${o.seed}`;

function loadReuse(o: Options, files: string[]): void {
  for (const file of files) {
    const f = JSON.parse(readFileSync(file, 'utf8')) as RetentionFile;
    if (f.perDir !== o.perDir || f.seed !== o.seed) continue;
    for (const r of f.rows) {
      for (const s of [...r.samples, ...(r.check?.samples ?? [])]) {
        reused.set(sampleKey(o, r.docs, r.churn, s.part ?? r.policy, s.commits), s);
      }
    }
  }
}

async function sample(o: Options, docs: number, churn: number, policy: Policy, commits: number): Promise<Sample> {
  const key = sampleKey(o, docs, churn, policy.name, commits);
  const known = reused.get(key);
  if (known) return { ...known, part: policy.name };
  log(`${docs} docs, ${churn * 100}% churn, ${policy.name}, ${commits} hourly runs…`);
  const size = await measureHistory({ docs, churn, commits, perDir: o.perDir, seed: o.seed, policy });
  log(
    `  ${(size.packBytes / 2 ** 20).toFixed(1)} MiB, ${size.blobs} blobs, ${Math.round(size.repackMs / 1000)} s repack`,
  );
  const s = { commits, part: policy.name, ...size };
  reused.set(key, s);
  return s;
}

/** The full-year size from a plan's samples: the one measured, or the line through two. */
function fullYear(plan: Plan, samples: Sample[], year: number): number | null {
  const [a, b] = samples;
  if (plan.method === 'measured' && a) return a.packBytes;
  return a && b ? extrapolate([a.commits, a.packBytes], [b.commits, b.packBytes], year) : null;
}

async function planned(o: Options, docs: number, churn: number, policy: Policy, year: number, maxBlobs = o.maxBlobs) {
  const plan = planFor(docs, churn, policy, year, maxBlobs);
  const samples: Sample[] = [];
  for (const y of plan.years) samples.push(await sample(o, docs, churn, policy, y));
  return { plan, samples, bytes: fullYear(plan, samples, year) };
}

/**
 * A thinned policy too large to generate whole, in parts: its window of hourly commits (keep the last
 * `window`), plus its thinned commits alone over the rest of the year, less one first state (each part
 * holds a full state once; the whole holds it once). Deltas across the seam are lost, so it errs high.
 */
async function composed(o: Options, docs: number, churn: number, policy: Policy) {
  const recentPolicy = keepLast(policy.window);
  const olderPolicy = thinnedOnly(policy.period);
  const olderYear = o.commits - policy.window;
  const fits = (p: Policy, year: number) => planFor(docs, churn, p, year, o.maxBlobs).method !== 'too-large';
  if (!fits(recentPolicy, o.commits) || !fits(olderPolicy, olderYear)) return undefined;
  const recent = await planned(o, docs, churn, recentPolicy, o.commits);
  const older = await planned(o, docs, churn, olderPolicy, olderYear);
  if (recent.bytes === null || older.bytes === null) return undefined;
  const first = await sample(o, docs, churn, FIRST_STATE, o.commits);
  const samples = [...recent.samples, ...older.samples, first];
  return { samples, bytes: recent.bytes + older.bytes - first.packBytes };
}

/**
 * One figure: the plan's samples, then the full-year size. With --check, a measured figure is also
 * extrapolated from two shorter years (as a run allowing a third of its blobs would), to test the method.
 */
async function row(o: Options, docs: number, churn: number, policy: Policy): Promise<RetentionRow> {
  const whole = await planned(o, docs, churn, policy, o.commits);
  const head = { docs, churn, policy: policy.name, label: policy.label, maxBlobs: o.maxBlobs };
  if (whole.plan.method === 'too-large' && policy.period > 1) {
    const parts = await composed(o, docs, churn, policy);
    if (parts) return { ...head, method: 'composed', packBytes: parts.bytes, samples: parts.samples };
  }
  const out: RetentionRow = { ...head, method: whole.plan.method, packBytes: whole.bytes, samples: whole.samples };
  if (!o.check || whole.plan.method !== 'measured') return out;
  const third = Math.ceil(expectedBlobs(docs, churn, policy.keep(o.commits)) / 3);
  const check = await planned(o, docs, churn, policy, o.commits, third);
  if (check.plan.method !== 'extrapolated' || check.bytes === null) return out;
  return { ...out, check: { samples: check.samples, packBytes: check.bytes } };
}

/** Rows of several runs (--merge): a later figure replaces an earlier one, unless it is only too large. */
function mergeRows(files: RetentionFile[]): RetentionRow[] {
  const byCase = new Map<string, RetentionRow>();
  for (const f of files) {
    // Parts measured ahead (thinned-24, first-state…) live on in the composed figures' samples.
    for (const r of f.rows.filter((x) => POLICIES.some((p) => p.name === x.policy))) {
      const key = `${r.docs}/${r.churn}/${r.policy}`;
      const { estimate: _, ...fresh } = r;
      if (r.method !== 'too-large' || byCase.get(key)?.method === 'too-large' || !byCase.has(key))
        byCase.set(key, fresh);
    }
  }
  return [...byCase.values()];
}

function resultsFile(o: Options, rows: RetentionRow[]): RetentionFile {
  return {
    date: new Date().toISOString(),
    git: execFileSync('git', ['--version'], { encoding: 'utf8' }).trim(),
    node: process.version,
    quick: o.quick,
    commits: o.commits,
    perDir: o.perDir,
    seed: o.seed,
    rows,
  };
}

async function main() {
  const o = options();
  // A quick run proves the pipeline, its figures are not the table's: it never replaces the committed results.
  const base = o.quick ? join(tmpdir(), 'docdb-retention-quick') : join(here, 'results', 'retention');
  const out = flag('out') ?? `${base}.json`;
  if (process.argv.includes('--render')) {
    writeFileSync(`${base}.md`, retentionTable(JSON.parse(readFileSync(`${base}.json`, 'utf8')) as RetentionFile));
    return;
  }
  const parts = flag('merge')?.split(',');
  loadReuse(o, flag('reuse')?.split(',') ?? []);
  const rows: RetentionRow[] = [];
  if (parts) rows.push(...mergeRows(parts.map((p) => JSON.parse(readFileSync(p, 'utf8')) as RetentionFile)));
  mkdirSync(dirname(out), { recursive: true });
  for (const docs of parts ? [] : o.docs) {
    for (const churn of o.churn) {
      for (const policy of o.policies) {
        rows.push(await row(o, docs, churn, policy));
        // Every finished figure is kept at once: a long run stopped midway loses only the one under way.
        writeFileSync(out, `${JSON.stringify(resultsFile(o, rows), null, 2)}\n`);
      }
    }
  }
  const order = (r: RetentionRow) => r.docs * 1e4 + r.churn * 1e3 + POLICIES.findIndex((p) => p.name === r.policy);
  rows.sort((a, b) => order(a) - order(b));
  estimateTooLarge(rows);
  const file = resultsFile(o, rows);
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  if (out === `${base}.json`) writeFileSync(`${base}.md`, retentionTable(file));
  process.stdout.write(retentionTable(file));
}

await main();
