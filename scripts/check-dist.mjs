#!/usr/bin/env node
/**
 * Fail (exit 1) when the committed dist/ is not what a fresh build of src/ produces: the Action runs
 * dist/index.js, so a stale bundle means users run old code. Rebuilds into a temporary directory and
 * compares file lists and bytes.
 *
 *   npm run check:dist                        # compare dist/ with a fresh build
 *   node scripts/check-dist.mjs --dist DIR    # compare DIR instead
 *   node scripts/check-dist.mjs --fresh DIR   # compare with the build already in DIR (no rebuild; tests)
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAction, listFiles } from './build-action.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Differences between a fresh build in `freshDir` and `distDir`, as human-readable lines (empty = same). */
export async function compareDist(freshDir, distDir) {
  const fresh = await listFiles(freshDir);
  const committed = await listFiles(distDir);
  const problems = [];
  for (const f of fresh) {
    if (!committed.includes(f)) {
      problems.push(`missing: ${f}`);
      continue;
    }
    const [a, b] = await Promise.all([readFile(join(freshDir, f)), readFile(join(distDir, f))]);
    if (!a.equals(b)) {
      // Name the first differing line so the failure is actionable.
      const la = a.toString('utf8').split('\n');
      const lb = b.toString('utf8').split('\n');
      let n = 0;
      while (n < la.length && la[n] === lb[n]) n++;
      problems.push(`differs: ${f} (first difference at line ${n + 1})`);
    }
  }
  for (const f of committed) if (!fresh.includes(f)) problems.push(`extra: ${f} (not produced by the build)`);
  return problems;
}

/** Build into a temp dir and compare with `distDir`; returns the problems (empty when up to date). */
export async function checkDist(distDir = join(root, 'dist')) {
  const tmp = await mkdtemp(join(tmpdir(), 'docdb-dist-'));
  try {
    await buildAction(tmp);
    return await compareDist(tmp, distDir);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

export function staleMessage(problems) {
  return (
    `dist/ is stale: it does not match a fresh build of src/.\n  ${problems.join('\n  ')}\n` +
    'Run "npm run build:action" and commit dist/.'
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--dist');
  const distDir = i > 0 ? resolve(process.argv[i + 1] ?? '') : join(root, 'dist');
  const f = process.argv.indexOf('--fresh');
  const problems = f > 0 ? await compareDist(resolve(process.argv[f + 1] ?? ''), distDir) : await checkDist(distDir);
  if (problems.length > 0) {
    console.error(staleMessage(problems));
    process.exitCode = 1;
  } else {
    console.log('dist/ is up to date (it matches a fresh build of src/).');
  }
}
