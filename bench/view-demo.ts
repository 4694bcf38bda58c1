/**
 * `docdb view --demo`'s start (issue 29 item 10: "seed it fast, < ~5 s"): the emulator with the demo
 * seed, then the demo section written by the library straight into its object database
 * (src/cli/demo-section.ts), timed apart; extras say how big the section is.
 */
import { performance } from 'node:perf_hooks';
import { DEMO_SECTION, seedDemoSection } from '../src/cli/demo-section.js';
import { DEMO_SEED, startEmulator } from '../src/emulator/index.js';
import type { BenchResult } from './run.js';

/** One result: the seeding time (the emulator's start is an extra), over `quick ? 1 : 3` fresh emulators. */
export async function viewDemoSeed(quick: boolean): Promise<BenchResult> {
  const iterations = quick ? 1 : 3;
  let seedMs = 0;
  let startMs = 0;
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    const em = await startEmulator({ seed: DEMO_SEED });
    const t1 = performance.now();
    try {
      await seedDemoSection(em.state);
      seedMs += performance.now() - t1;
      startMs += t1 - t0;
    } finally {
      await em.stop();
    }
  }
  return {
    name: `docdb view --demo: seed the demo section (${DEMO_SECTION.repos} indexed documents, ${DEMO_SECTION.updates + 1} commits)`,
    iterations,
    totalMs: seedMs,
    perOpMs: seedMs / iterations,
    extra: { emulatorStartMs: Math.round(startMs / iterations), commits: DEMO_SECTION.updates + 1 },
  };
}
