/**
 * Why GitRefStore hands git one pack per write (docs/git-stores.md): the cost of starting a git process
 * from this (benchmark-sized) Node process, and 10,000 small blobs stored two ways in a bare repository —
 * as loose objects through temporary files and `git hash-object -w --stdin-paths`, and as one pack
 * (`buildPack`, the store's own encoder) through `git index-pack --stdin --strict`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { utf8 } from '../src/core/bytes.js';
import { buildPack } from '../src/stores/git/pack.js';
import type { BenchResult } from './run.js';

function timed(name: string, iterations: number, fn: () => void): BenchResult {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  const totalMs = performance.now() - start;
  return { name, iterations, totalMs, perOpMs: totalMs / iterations };
}

/** Process start, then `n` blobs (≈250 bytes each) as loose objects and as one pack. */
export async function gitObjectBenches(quick: boolean): Promise<BenchResult[]> {
  const n = quick ? 2_000 : 10_000;
  const tmp = mkdtempSync(join(tmpdir(), 'docdb-bench-git-'));
  try {
    const git = (args: string[], input?: Buffer | string) => execFileSync('git', args, { input, maxBuffer: 1 << 28 });
    const bodies = Array.from({ length: n }, (_, i) => `{"i":${i},"text":"${'x'.repeat(240)}"}\n`);
    const loose = join(tmp, 'loose.git');
    const packed = join(tmp, 'packed.git');
    git(['init', '-q', '--bare', loose]);
    git(['init', '-q', '--bare', packed]);
    const files = join(tmp, 'files');
    mkdirSync(files);
    const paths = bodies.map((_, i) => join(files, `${i}.json`));
    return [
      timed('git process start (git --version)', quick ? 5 : 20, () => git(['--version'])),
      timed(`git objects: ${n} blobs written as temporary files`, 1, () => {
        bodies.forEach((b, i) => {
          writeFileSync(paths[i] as string, b);
        });
      }),
      timed(`git objects: ${n} blobs through hash-object -w --stdin-paths (loose)`, 1, () =>
        git(['--git-dir', loose, 'hash-object', '-w', '--stdin-paths'], `${paths.join('\n')}\n`),
      ),
      timed(`git objects: ${n} blobs as one pack (index-pack --stdin --strict)`, 1, () =>
        git(
          ['--git-dir', packed, 'index-pack', '--stdin', '--strict'],
          Buffer.from(buildPack(bodies.map((b) => ({ type: 'blob', body: utf8(b) })))),
        ),
      ),
    ];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
