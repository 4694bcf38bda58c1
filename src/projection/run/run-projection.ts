/**
 * One projection of a run: read its source page by page, render each item's identity, reduce it, compare
 * the envelope's blob SHA with the section's tip, and collect only the changes (plus prune deletions and
 * the state file). Pages known unchanged through a 304 keep the documents they produced last time.
 * Nothing is written here: run-projections.ts commits every projection's changes in one commit.
 */
import { readSource, type SourcePage } from '../sources/index.js';
import { ProjectionPass } from './projection-pass.js';
import type { ProjectionInput, ProjectionRun } from './projection-types.js';
import { fromSource } from './run-report.js';

export type { ProjectionInput, ProjectionReport, ProjectionRun } from './projection-types.js';

/**
 * Read, reduce and diff one projection.
 *
 * @example
 * const { report, state } = await runProjection({ p, specFile: spec.file, mode: 'project', reducer, ... });
 */
export async function runProjection(input: ProjectionInput): Promise<ProjectionRun> {
  const pass = new ProjectionPass(input);
  pass.logStart();
  for await (const page of sourcePages(input, pass)) await pass.readPage(page);
  if (input.p.prune) await pass.prune();
  const state = pass.stateOp();
  pass.logEnd();
  return { report: pass.report, changes: pass.changes, ...(state ? { state } : {}) };
}

/**
 * The source's pages; a failure of the source (not of reducing a page, which the consumer does) names the
 * projection and its spec line.
 */
async function* sourcePages(input: ProjectionInput, pass: ProjectionPass): AsyncGenerator<SourcePage> {
  try {
    yield* readSource(pass.ctx, input.p.source);
  } catch (e) {
    throw fromSource(e, input.specFile, input.p);
  }
}
