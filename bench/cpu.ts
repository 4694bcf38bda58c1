/**
 * CPU throughput of the primitives every read and write goes through (5 MiB of data each): SHA-1 through
 * the platform (`node:crypto`) against the portable JavaScript fallback, and base64 as docdb encodes and
 * decodes it (`toBase64`/`fromBase64`: `Buffer` in Node, GitHub's 60-character lines on decode) against
 * the portable encoder and decoder, and `Buffer.from(text, 'base64')` alone (no newline stripping, no
 * validation) for scale. Reported as MiB/s of raw bytes.
 */
import { performance } from 'node:perf_hooks';
import { fromBase64, fromBase64Js, toBase64, toBase64Js } from '../src/core/bytes.js';
import { sha1Hex, sha1HexJs, sha1Implementation } from '../src/core/git/sha1.js';
import type { BenchResult } from './run.js';

const MIB = 5;

/** Time `fn` over `iterations` calls on 5 MiB; the result carries MiB/s. */
function throughput(name: string, iterations: number, fn: () => unknown): BenchResult {
  fn(); // warm-up: JIT and lazy module lookups are not part of the figure
  const start = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  const totalMs = performance.now() - start;
  const perOpMs = totalMs / iterations;
  return { name, iterations, totalMs, perOpMs, extra: { mibPerSec: Math.round((MIB * 1000) / perOpMs) } };
}

/** GitHub's blob `content`: base64 with a newline after every 60 characters. */
function githubBase64(bytes: Uint8Array): string {
  return (toBase64(bytes).match(/.{1,60}/g) ?? []).join('\n');
}

/** SHA-1 and base64, platform against portable; `quick` runs fewer iterations. */
export async function cpuBenches(quick: boolean): Promise<BenchResult[]> {
  if (sha1Implementation() !== 'node') throw new Error('the CPU bench expects node:crypto to be reachable');
  const data = new Uint8Array(MIB * 1024 * 1024).map((_, i) => (i * 31) & 0xff);
  const text = githubBase64(data);
  const plain = toBase64(data);
  const fast = quick ? 5 : 20;
  const slow = quick ? 1 : 3;
  return [
    throughput(`sha1 ${MIB} MiB (node:crypto)`, fast, () => sha1Hex(data)),
    throughput(`sha1 ${MIB} MiB (JavaScript)`, slow, () => sha1HexJs(data)),
    throughput(`base64 encode ${MIB} MiB (Buffer)`, fast, () => toBase64(data)),
    throughput(`base64 encode ${MIB} MiB (JavaScript)`, slow, () => toBase64Js(data)),
    throughput(`base64 decode ${MIB} MiB, 60-char lines (Buffer)`, fast, () => fromBase64(text)),
    throughput(`base64 decode ${MIB} MiB, 60-char lines (JavaScript)`, slow, () => fromBase64Js(text)),
    throughput(`base64 decode ${MIB} MiB, one line (Buffer.from alone)`, fast, () => Buffer.from(plain, 'base64')),
  ];
}
