/**
 * Peak memory of archive reads (issue 27): honest sections of a few sizes, read whole (the bytes of memory
 * a bulk read's archive path needs per byte of section), and the refused bombs, each in its own Node
 * process with the default limits (`__tests__/memory/scenarios/archive-bomb.ts`). Memory above the
 * process's baseline, measured as peak RSS; wall time is the child's, CPU shared with whatever runs.
 *
 *   npx tsx bench/archive-memory.ts
 * Writes bench/results/archive-memory.json.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { MiB, peakRss } from '../__tests__/memory/peak-rss.js';

const SCENARIO = '__tests__/memory/scenarios/archive-bomb.ts';
const DOC = 16 * 1024;

const runs: { name: string; args: string[] }[] = [
  ...[16, 64, 150].map((mib) => ({
    name: `honest ${mib} MiB (${(mib * MiB) / DOC} documents of 16 KiB)`,
    args: ['honest', String((mib * MiB) / DOC), String(DOC)],
  })),
  { name: 'bomb: 600 entries with an 8 MB pax path', args: ['pax', '600', String(8 * MiB)] },
  { name: 'bomb: 2,000,000 empty entries', args: ['entries', '2000000'] },
  { name: 'bomb: 1 GiB of zeros in 1 MiB files', args: ['zeros', '1024', String(MiB)] },
];

const rows = [];
for (const run of runs) {
  const t0 = performance.now();
  const m = await peakRss(SCENARIO, run.args);
  const ms = Math.round(performance.now() - t0);
  const result = (m.result ?? {}) as { sectionBytes?: number; overLimit?: string | null; tarBytes?: number };
  const section = result.sectionBytes ?? 0;
  const row = {
    name: run.name,
    outcome: m.error ? `${m.error.code}: ${m.error.message.replace(/^.*answer: /, '')}` : (result.overLimit ?? 'read'),
    aboveBaselineMiB: Math.round((m.aboveBytes / MiB) * 10) / 10,
    sectionMiB: Math.round((section / MiB) * 10) / 10,
    memoryPerSectionByte: section > 0 ? Math.round((m.aboveBytes / section) * 100) / 100 : null,
    ms,
  };
  rows.push(row);
  console.log(JSON.stringify(row));
}

const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'archive-memory.json');
writeFileSync(
  out,
  `${JSON.stringify({ node: process.version, date: new Date().toISOString().slice(0, 10), limits: { maxBytes: '160 MiB', maxEntries: 200_000 }, rows }, null, 2)}\n`,
);
console.log(`wrote ${out}`);
