/**
 * The words of a run: its commit message (with git trailers), the report of what the commit really did
 * (reconciled when another run's commit already made some of the changes), and the projection named in a
 * DocumentTooLarge or a source's failure.
 */
import type { WriteResult } from '../../core/refstore.js';
import type { DocumentOp } from '../../document/document-store.js';
import { identityOf } from '../../document/envelope.js';
import { deriveKey } from '../../document/identity.js';
import type { ProjectionSpec, Spec } from '../spec/index.js';
import type { RunMode, RunReport } from './options.js';
import type { ProjectionReport } from './projection-types.js';

/** The report before the commit: what every outcome (dry run, no change, commit) has in common. */
export type BaseReport = Pick<RunReport, 'mode' | 'ref' | 'projections' | 'unchanged' | 'keys' | 'shard'>;

/**
 * The default commit message: each projection that changed something, with its counts.
 *
 * @example
 * defaultMessage([{ name: 'repos', added: ['k'], changed: [], removed: [] } as ProjectionReport], 'project'); // 'docdb: project repos (+1 ~0 -0)'
 */
export function defaultMessage(reports: ProjectionReport[], mode: RunMode): string {
  const parts = reports
    .filter((r) => r.added.length + r.changed.length + r.removed.length > 0)
    .map((r) => `${r.name} (+${r.added.length} ~${r.changed.length} -${r.removed.length})`);
  return `docdb: ${mode === 'backfill' ? 'backfill' : 'project'} ${parts.length ? parts.join(', ') : 'state'}`;
}

/**
 * Append git trailers (`Key: value` lines after a blank line), as `git interpret-trailers` lays them out.
 *
 * @example
 * withTrailers('docdb: project repos (+1 ~0 -0)', ['Docdb-Run: 7.1']); // 'docdb: project repos (+1 ~0 -0)\n\nDocdb-Run: 7.1\n'
 */
export function withTrailers(message: string, trailers: readonly string[]): string {
  if (trailers.length === 0) return message;
  return `${message.replace(/\s+$/, '')}\n\n${trailers.join('\n')}\n`;
}

/**
 * Every document key added, changed or removed, sorted.
 *
 * @example
 * changedKeys(report.projections); // ['github/issue/o/r#2.json', 'github/repo/o/r.json']
 */
export function changedKeys(reports: readonly ProjectionReport[]): string[] {
  return reports.flatMap((r) => [...r.added, ...r.changed, ...r.removed]).sort();
}

/**
 * If another run advanced the section first, the store rebased these changes onto its tip, where some
 * may already have been made. Report what the commit really did, so outputs and summary match it.
 *
 * @example
 * reconcile(base, write, console.log); // base.projections now list only what `write` really wrote or deleted
 */
export function reconcile(base: BaseReport, write: WriteResult, log: (line: string) => void): void {
  const didWrite = new Set(write.written);
  const didDelete = new Set(write.deleted);
  let reconciled = 0;
  for (const r of base.projections) {
    const before = r.added.length + r.changed.length + r.removed.length;
    r.added = r.added.filter((k) => didWrite.has(k));
    r.changed = r.changed.filter((k) => didWrite.has(k));
    r.removed = r.removed.filter((k) => didDelete.has(k));
    const dropped = before - (r.added.length + r.changed.length + r.removed.length);
    r.unchanged += dropped;
    reconciled += dropped;
  }
  if (reconciled > 0) {
    log(`${reconciled} document change(s) were already in the section after another run's commit`);
    base.unchanged += reconciled;
    base.keys = changedKeys(base.projections);
  }
}

/**
 * The progress line after the write.
 *
 * @example
 * logWrite(write, console.log); // committed 1a2b…: 3 document(s) written, 0 deleted (+1 incremental-state key)
 */
export function logWrite(write: WriteResult, log: (line: string) => void): void {
  if (!write.changed) {
    log('no document changed: no commit');
    return;
  }
  const meta = write.written.filter((k) => k.startsWith('_docdb/')).length;
  log(
    `committed ${write.version}: ${write.written.length - meta} document(s) written, ${write.deleted.length} deleted` +
      (meta ? ` (+${meta} incremental-state key${meta === 1 ? '' : 's'})` : ''),
  );
}

/**
 * A document over the size limit is found by the store, which names the key; the run adds which projection
 * produced it — the one whose report lists the key, else `current` (the projection running when a streamed
 * part was refused) — and where that projection is in the spec. Matched by name: the class lives in the core.
 *
 * @example
 * throw withProjection(e, reports, spec, 'repos'); // DocumentTooLarge: … (projection "repos", docdb.yml:4)
 */
export function withProjection(
  e: unknown,
  reports: readonly ProjectionReport[],
  spec: Spec,
  current?: string,
): unknown {
  if ((e as { name?: string })?.name !== 'DocumentTooLarge') return e;
  const data = (e as { data?: Record<string, unknown> }).data;
  const key = typeof data?.key === 'string' ? data.key : undefined;
  const name =
    (key ? reports.find((r) => r.added.includes(key) || r.changed.includes(key)) : undefined)?.name ?? current;
  const p = spec.projections.find((q) => q.name === name);
  return p ? atProjection(e, spec.file, p, p.lines.reducer) : e;
}

/**
 * A failure of a projection's source (a timeout, `max-pages`, a pagination loop, a refused answer) names
 * the projection and where its `source` is in the spec, as spec errors do.
 *
 * @example
 * throw fromSource(e, 'docdb.yml', p); // InvalidResponse: …; refusing to loop (projection "repos", docdb.yml:3)
 */
export function fromSource(e: unknown, specFile: string, p: ProjectionSpec): unknown {
  return atProjection(e, specFile, p, p.lines.source);
}

/** Append `(projection "name", file:line)` to a docdb error's message and the same to its data, once. */
function atProjection(e: unknown, specFile: string, p: ProjectionSpec, line: number): unknown {
  const err = e as { message?: unknown; data?: Record<string, unknown> };
  if (typeof err?.message !== 'string' || !err.data || typeof err.data !== 'object') return e;
  if (err.data.projection !== undefined) return e;
  err.message = `${err.message.replace(/\.$/, '')} (projection "${p.name}", ${specFile}:${line})`;
  err.data.projection = p.name;
  err.data.file ??= specFile;
  err.data.line ??= line;
  return e;
}

/**
 * The key an op writes or deletes.
 *
 * @example
 * opKey({ op: 'meta', key: '_docdb/state/repos.json', value: null }); // '_docdb/state/repos.json'
 */
export function opKey(op: DocumentOp): string {
  return op.op === 'meta' ? op.key : op.op === 'put' ? deriveKey(identityOf(op.document)) : deriveKey(op.identity);
}
