/**
 * The computing half of `mode: review` (issue 39): the spec's projections as a dry run against the section
 * tip (incremental, as a scheduled run), with the would-be commit's `schema:`/`expect:` evaluated on that
 * tip without moving the section (RunOptions.evaluate), the `before` data of every modified or removed
 * document in ONE bulk read at the tip (the store's readMany: the archive on GitHub), and — for a
 * same-repository pull request — the would-be commit written to the preview ref.
 */
import { DocDbError } from '../core/errors.js';
import { readManyFrom } from '../core/read-many.js';
import type { RefStore } from '../core/refstore.js';
import type { DocumentOp } from '../document/document-store.js';
import { decodeEnvelope } from '../document/envelope.js';
import { parseKey } from '../document/identity.js';
import {
  type PlannedCommit,
  type PreviewHost,
  type RunRefusal,
  type RunReport,
  runProjections,
  writePreview,
} from '../projection/run/index.js';
import { opKey } from '../projection/run/run-report.js';
import type { ReviewDocument, ReviewViolation } from '../review/types.js';
import type { ActionContext, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import { loadActionSpec, runOptions } from './project-mode.js';

/** Why modules are refused under `pull_request_target` (module-refusal.ts says it on the spec line). */
export const TARGET_REFUSAL =
  'a review under pull_request_target runs with the base repository’s write token and secrets, so it imports no reducer or check module from the workspace (it may hold the pull request’s code); review on pull_request and post with mode: review-publish from a workflow_run workflow (docs/action.md), or use built-in reducers';

/** The dry run of a review: its report, the would-be commit, and the spec it ran. */
export interface ReviewRun {
  report: RunReport;
  planned: PlannedCommit;
  specFile: string;
  projections: { name: string; line: number }[];
  /** Some projection declares `expect:` or `schema:`. */
  declared: boolean;
}

/**
 * The dry run with its evaluation (modules refused when `refuseModules` says why).
 *
 * @example
 * const run = await reviewDryRun(inputs, context, tools, undefined);
 * run.planned.refusal; // null: the commit would be accepted
 */
export async function reviewDryRun(
  inputs: ActionInputs,
  context: ActionContext,
  tools: ActionTools,
  refuseModules: string | undefined,
): Promise<ReviewRun> {
  const { spec, specPath, workspace } = await loadActionSpec(inputs, context);
  const report = await runProjections({
    ...runOptions(inputs, 'dry-run', context, tools, { spec, specPath, workspace, target: undefined }),
    evaluate: true,
    ...(refuseModules ? { refuseModules } : {}),
  });
  const planned = report.planned as PlannedCommit;
  const selected = spec.projections.filter((p) => report.projections.some((r) => r.name === p.name));
  return {
    report,
    planned,
    specFile: spec.file,
    projections: selected.map((p) => ({ name: p.name, line: p.lines.expect ?? p.line })),
    declared: selected.some((p) => p.expect !== undefined || p.schema !== undefined),
  };
}

/**
 * The refusal's violations in the review's shape (each names its projection and rule; never a value).
 *
 * @example
 * reviewViolations(run.planned.refusal); // [{ projection: 'repos', rule: 'max-removed', message: '…' }]
 */
export function reviewViolations(refusal: RunRefusal | null): ReviewViolation[] {
  if (!refusal) return [];
  // The refusal lists its first 50 violations; ReviewInput.expectations.count carries how many in all.
  return refusal.violations.map((v) => ({
    projection: v.projection ?? '',
    rule: v.kind === 'schema' ? 'schema' : (v.expectation ?? 'expect'),
    ...(v.key !== undefined ? { key: v.key } : {}),
    message: v.message,
  }));
}

/**
 * Every document the run would change, in key order, with its data before (read at the tip in ONE bulk
 * read) and after (the run's own operation).
 *
 * @example
 * for (const d of await reviewDocuments(store, run)) console.log(d.change, d.key);
 */
export async function reviewDocuments(store: RefStore, run: ReviewRun): Promise<Iterable<ReviewDocument>> {
  const tip = run.report.previousVersion;
  const changes = new Map<string, { change: ReviewDocument['change']; projection: string }>();
  for (const p of run.report.projections) {
    for (const k of p.added) changes.set(k, { change: 'added', projection: p.name });
    for (const k of p.changed) changes.set(k, { change: 'modified', projection: p.name });
    for (const k of p.removed) changes.set(k, { change: 'removed', projection: p.name });
  }
  const after = new Map<string, unknown>();
  for (const op of run.planned.ops) if (op.op === 'put') after.set(opKey(op), op.document.data);
  const earlier = [...changes].filter(([, c]) => c.change !== 'added').map(([k]) => k);
  const before = new Map<string, unknown>();
  if (tip && earlier.length > 0) {
    for await (const item of readManyFrom(store, earlier, { version: tip })) {
      if (item.value) before.set(item.key, decodeEnvelope(item.value, tip).data);
    }
  }
  const keys = [...changes.keys()].sort();
  return (function* () {
    for (const key of keys) {
      const id = parseKey(key);
      const c = changes.get(key)!;
      if (!id) continue;
      yield {
        key,
        namespace: id.namespace,
        type: id.doc_type,
        id: id.id,
        change: c.change,
        projection: c.projection,
        before: before.get(key),
        after: after.get(key),
      };
    }
  })();
}

/**
 * Write the preview of a same-repository pull request; a token that may not write (403/404) or a commit
 * the section's schemas would refuse leaves no preview and says why in `note`, never failing the step.
 *
 * @example
 * const { preview, note } = await tryPreview(host, tools.ref, 42, run);
 */
export async function tryPreview(
  host: PreviewHost | undefined,
  sectionRef: string,
  pullRequest: number,
  run: ReviewRun,
): Promise<{ preview: { ref: string; version: string } | null; note?: string }> {
  if (!host) return { preview: null, note: 'no preview: the section is not on the GitHub API (a local git section)' };
  if (run.planned.refusal?.kind === 'schema') {
    return { preview: null, note: 'no preview: documents of the change break their schema (see the expectations)' };
  }
  try {
    const p = await writePreview({
      host,
      sectionRef,
      pullRequest,
      ops: documentOpsOrNone(run.planned.ops),
      base: run.report.previousVersion,
      message: `docdb: review preview of pull request #${pullRequest}`,
      indexes: run.planned.indexes,
      schemas: run.planned.schemas,
    });
    return { preview: p.version ? { ref: p.ref, version: p.version } : null };
  } catch (e) {
    if (e instanceof DocDbError && (e.code === 'Forbidden' || e.code === 'NotFound' || e.code === 'Unauthorized')) {
      return {
        preview: null,
        note: 'no preview: the token may not write refs (contents: write is missing); the review was computed in memory',
      };
    }
    throw e;
  }
}

/** A preview only when some document changes (state files alone are no change to look at). */
function documentOpsOrNone(ops: readonly DocumentOp[]): readonly DocumentOp[] {
  return ops.some((o) => o.op !== 'meta') ? ops : [];
}
