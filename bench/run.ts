/**
 * Benchmarks (timings live here, never in tests). Writes bench/results/latest.json and prints a table.
 * Run: npm run bench   (optionally: npm run bench -- --quick)
 *      npm run bench -- --only cpu,bundle   only these suites (bench/suites.ts names); their results replace
 *                                           the same-named ones in latest.json, which keeps the others
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benches } from './suites.js';

export interface BenchResult {
  name: string;
  iterations: number;
  totalMs: number;
  perOpMs: number;
  /** Extra measurements a bench reports (request counts, bytes…). */
  extra?: Record<string, number | string>;
}

/** bench/results/latest.json. */
export interface LatestFile {
  /** When the last full run started writing; `reruns` dates the suites run again on their own since. */
  date: string;
  node: string;
  quick: boolean;
  results: BenchResult[];
  reruns?: Record<string, string>;
}

const quick = process.argv.includes('--quick');
const at = process.argv.indexOf('--only');
const only = at > 0 ? (process.argv[at + 1] ?? '').split(',') : undefined;
for (const name of only ?? []) {
  if (!(name in benches)) {
    console.error(`unknown suite "${name}"; known: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
}
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');
const previous = only && existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as LatestFile) : undefined;
if (previous && previous.quick !== quick) {
  console.error(`latest.json was a ${previous.quick ? 'quick' : 'full'} run: rerun with the same --quick setting`);
  process.exit(2);
}
const results: BenchResult[] = [...(previous?.results ?? [])];
for (const [name, bench] of Object.entries(benches)) {
  if (only && !only.includes(name)) continue;
  for (const r of [await bench(quick)].flat()) {
    // A suite run again replaces its own results in place; the other suites' results are kept.
    const i = results.findIndex((x) => x.name === r.name);
    if (i >= 0) results[i] = r;
    else results.push(r);
    const extra = r.extra ? ` ${JSON.stringify(r.extra)}` : '';
    console.log(`${r.name.padEnd(64)} ${r.perOpMs.toFixed(3).padStart(10)} ms/op  (${r.iterations} ops)${extra}`);
  }
}
const now = new Date().toISOString();
const file: LatestFile = previous
  ? {
      ...previous,
      node: process.version,
      results,
      reruns: { ...previous.reruns, ...Object.fromEntries((only ?? []).map((n) => [n, now])) },
    }
  : { date: now, node: process.version, quick, results };
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
console.log(`\nwrote ${out}`);
