/**
 * Benchmarks (timings live here, never in tests). Writes bench/results/latest.json and prints a table.
 * Run: npm run bench   (optionally: npm run bench -- --quick)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
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

const quick = process.argv.includes('--quick');
const results: BenchResult[] = [];
for (const bench of benches) {
  for (const r of [await bench(quick)].flat()) {
    results.push(r);
    const extra = r.extra ? ` ${JSON.stringify(r.extra)}` : '';
    console.log(`${r.name.padEnd(64)} ${r.perOpMs.toFixed(3).padStart(10)} ms/op  (${r.iterations} ops)${extra}`);
  }
}
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, quick, results }, null, 2)}\n`,
);
console.log(`\nwrote ${out}`);
