/**
 * The per-type schema validator (issue 38) at the size of its budget: 10,000 documents of ~1.2 KB against
 * a realistic 10-property schema. Pure CPU — no store, no requests.
 *
 *   npm run bench -- --only schema-validate      (or: npx tsx bench/schema-validate.ts [--quick])
 *
 * Measured: documents validated per second (goal ≥ 50,000); the same documents' serialise+hash CPU (only
 * part of a write's client CPU, so `cpuRatioVsSerialiseOnly` is an upper bound of the ratio the 1.15×
 * budget is about); 10,000 invalid documents' problems; and the validator's browser weight
 * (src/document/schema + @cfworker/json-schema, esbuild minified, gzip level 9).
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { blobSha } from '../src/core/git/objects.js';
import { canonicalJson } from '../src/document/canonical-json.js';
import { compileSchema } from '../src/document/schema/compile.js';
import type { BenchResult } from './run.js';

const LANGS = ['C', 'C++', 'Go', 'Java', 'JavaScript', 'Python', 'Ruby', 'Rust', 'TypeScript', 'Zig'];

/** A repository schema of the kind a projection declares: 10 properties, most common keywords. */
export const repoSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['name', 'full_name', 'stars', 'archived'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    full_name: { type: 'string', pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$' },
    language: { type: ['string', 'null'], enum: [...LANGS, null] },
    stars: { type: 'integer', minimum: 0 },
    forks: { type: 'integer', minimum: 0 },
    description: { type: 'string', maxLength: 2000 },
    topics: { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 20, uniqueItems: true },
    archived: { type: 'boolean' },
    pushed_at: { type: 'string', format: 'date-time' },
    owner: {
      type: 'object',
      required: ['login'],
      properties: { login: { type: 'string' }, id: { type: 'integer' } },
    },
  },
};

/** A repository document's data of ~1.2 KB (as canonical JSON with its envelope). */
export function repoData(i: number) {
  return {
    name: `repo-${i}`,
    full_name: `owner-${i % 997}/repo-${i}`,
    language: LANGS[(i * 7) % LANGS.length],
    stars: (i * 7919) % 50_000,
    forks: i % 300,
    description: `A repository about ${'lorem ipsum dolor sit amet '.repeat(30)}`.slice(0, 900),
    topics: ['docdb', `t${i % 50}`],
    archived: i % 13 === 0,
    pushed_at: '2026-01-02T03:04:05Z',
    owner: { login: `owner-${i % 997}`, id: i % 997 },
  };
}

/** Best of `runs` timings (the first warms the JIT); ms. */
function best(runs: number, fn: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

/** min+gzip bytes of the validator as a browser bundle would carry it. */
async function browserBytes(): Promise<{ bytes: number; gzipBytes: number }> {
  const entry = fileURLToPath(new URL('../src/document/schema/compile.ts', import.meta.url));
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  });
  const code = out.outputFiles[0]!.contents;
  return { bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

export async function schemaValidateBench(quick: boolean): Promise<BenchResult[]> {
  const n = quick ? 2_000 : 10_000;
  const runs = quick ? 3 : 5;
  const docs = Array.from({ length: n }, (_, i) => repoData(i));
  const bad = docs.map((d) => ({ ...d, stars: -1, pushed_at: 'yesterday', extra: true }));
  const compiled = compileSchema(repoSchema);
  const docBytes = docs.reduce(
    (s, d, i) => s + canonicalJson({ id: `r${i}`, namespace: 'github', type: 'repo', data: d }).length,
    0,
  );

  let problems = 0;
  const validateMs = best(runs, () => {
    for (const d of docs) problems += compiled.validate(d).length;
  });
  if (problems !== 0) throw new Error(`bench documents should be valid, got ${problems} problems`);
  const invalidMs = best(runs, () => {
    problems = 0;
    for (const d of bad) problems += compiled.validate(d).length;
  });
  const serialiseMs = best(runs, () => {
    for (const [i, d] of docs.entries()) {
      blobSha(new TextEncoder().encode(canonicalJson({ id: `r${i}`, namespace: 'github', type: 'repo', data: d })));
    }
  });
  const compileMs = best(runs, () => compileSchema(repoSchema));
  const size = await browserBytes();
  const perSecond = Math.round((n / validateMs) * 1000);
  return [
    {
      name: `schema validate ${n} documents of ~1.2 KB (10-property schema)`,
      iterations: n,
      totalMs: validateMs,
      perOpMs: validateMs / n,
      extra: {
        docsPerSecond: perSecond,
        goalDocsPerSecond: 50_000,
        avgDocBytes: Math.round(docBytes / n),
        serialiseAndHashMs: +serialiseMs.toFixed(1),
        cpuRatioVsSerialiseOnly: +((serialiseMs + validateMs) / serialiseMs).toFixed(3),
        compileMs: +compileMs.toFixed(3),
      },
    },
    {
      name: `schema validate ${n} invalid documents (3 problems each)`,
      iterations: n,
      totalMs: invalidMs,
      perOpMs: invalidMs / n,
      extra: { docsPerSecond: Math.round((n / invalidMs) * 1000), problems },
    },
    {
      name: 'schema validator browser size (@cfworker/json-schema + src/document/schema)',
      iterations: 1,
      totalMs: 0,
      perOpMs: 0,
      extra: size,
    },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await schemaValidateBench(process.argv.includes('--quick'))) {
    console.log(`${r.name.padEnd(72)} ${r.perOpMs.toFixed(4).padStart(9)} ms/op ${JSON.stringify(r.extra)}`);
  }
}
