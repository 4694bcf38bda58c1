/**
 * One source for every benchmark figure in README.md and docs/*.md: rewrites the text between
 * `<!-- bench:NAME -->` and `<!-- /bench -->` with figure NAME (scripts/bench-docs/figures.ts), read from the
 * committed bench/results/*.json. Measures nothing; run the benches first to change a figure.
 *
 *   npm run bench:docs             rewrite the files whose figures differ from the results
 *   npm run bench:docs -- --check  write nothing; exit 1 naming the files that differ
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDocs } from './bench-docs/render.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const { docs, unused } = renderDocs(root);
if (unused.length) {
  console.error(`figures no document uses (remove them or add a marker): ${unused.join(', ')}`);
  process.exitCode = 1;
}
const stale = docs.filter((d) => d.current !== d.next);
for (const d of stale) {
  if (check) console.error(`${d.file}: figures differ from bench/results (run npm run bench:docs)`);
  else writeFileSync(join(root, d.file), d.next);
}
if (check && stale.length) process.exitCode = 1;
if (!check) console.log(stale.length ? `updated ${stale.map((d) => d.file).join(', ')}` : 'every figure is current');
