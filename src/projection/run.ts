/**
 * The projection runner: spec → sources (page by page) → reducers → envelopes → ONE atomic commit.
 *
 * - Unchanged documents are detected locally by git blob SHA against the section's tip tree, so a
 *   run where nothing changed sends no write request and makes no commit.
 * - Incremental state (the `since` watermark of issues/pulls) lives in the section itself under
 *   `_docdb/state/<projection>.json`, committed with the documents: runs are stateless.
 * - Everything is collected before the single commit: a failure anywhere means no commit at all.
 */
import { InvalidSpec } from '../core/errors.js';
import type { RefStore, WriteResult } from '../core/refstore.js';
import { type DocumentOp, DocumentStore } from '../document/document-store.js';
import { identityOf } from '../document/envelope.js';
import { deriveKey } from '../document/identity.js';
import { type LoadedReducer, loadReducer } from './reducers/index.js';
import { type ProjectionReport, runProjection } from './run-projection.js';
import { fingerprintOf, parseState, stateKey } from './run-state.js';
import type { Shard } from './shard.js';
import type { SourceClient } from './sources/index.js';
import { apiBaseOf, budgetedClient, RateBudget } from './sources/index.js';
import type { ProjectionSpec, Spec } from './spec/index.js';
import { StreamedCommit } from './streamed-commit.js';

export type { ProjectionReport } from './run-projection.js';
export { stateKey } from './run-state.js';

export type RunMode = 'project' | 'backfill' | 'dry-run';

export interface RunOptions {
  spec: Spec;
  /** Octokit (or anything with `request`) used for the sources. */
  client: SourceClient;
  /** The section's RefStore (RemoteApiRefStore in the Action). */
  store: RefStore;
  /** `project` (incremental where possible), `backfill` (re-project everything), `dry-run` (no writes). */
  mode?: RunMode;
  /** Run only these projections (default all). */
  only?: readonly string[];
  /** Commit message (default summarises the run). */
  commitMessage?: string;
  /** API base URL; pagination links must stay on its origin. */
  apiUrl?: string;
  /** Directory custom reducer modules are resolved against (default: the spec file's directory). */
  baseDir?: string;
  /** Items per page for the sources (default 100). */
  perPage?: number;
  /** Progress lines. */
  log?: (line: string) => void;
  /** `shard: i/n`: project only the documents whose key hashes to this shard (see shard.ts). */
  shard?: Shard;
  /** `min-rate-limit`: stop (and commit nothing) before a source request when this many or fewer are left. */
  minRateLimit?: number;
  /**
   * Identity of the token the sources use — a hash, never the token. Turns on conditional reads, whose
   * ETags are stored under it (GitHub's ETags depend on the token).
   */
  tokenIdentity?: string;
  /** Directory `files` sources read from (default: the current directory). */
  workspace?: string;
  /** fetch for `http` sources (default global fetch). The GitHub token is never given to it. */
  fetch?: typeof globalThis.fetch;
  /** Environment `http` sources read secret headers from (default `process.env` where it exists). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Directory custom reducer modules must stay inside after symbolic links are resolved (default:
   * `workspace` when given, else `baseDir`).
   */
  confineReducersTo?: string;
  /** Milliseconds one custom reducer call may take (default 30 s); past it the run fails naming the projection. */
  reducerTimeoutMs?: number;
  /** Called around each projection's work (the Action opens a log group per projection). */
  onProjection?: { start(name: string): void; end(name: string): void };
  /**
   * Lines appended to the commit message as git trailers (e.g. `Docdb-Run: 123.1`). Two runs that produce
   * the same change then never create byte-identical commits, so exactly one of them reports `changed`.
   */
  trailers?: readonly string[];
}

export interface RunReport {
  mode: RunMode;
  ref: string;
  projections: ProjectionReport[];
  /** True when a commit was made (always false for dry-run). */
  changed: boolean;
  /** Section tip after the run. */
  version: string | null;
  previousVersion: string | null;
  /** Keys written / deleted (for dry-run: that would be). Includes `_docdb/state/…` metadata keys. */
  written: string[];
  deleted: string[];
  /** Documents that were already up to date. */
  unchanged: number;
  /** Document keys added, changed or removed (metadata keys excluded). */
  keys: string[];
  /** The store's write result, when a commit was attempted. */
  write?: WriteResult;
  /** The shard this run projected, if any. */
  shard?: Shard;
}

function dirnameOf(file: string): string {
  const i = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return i < 0 ? '.' : file.slice(0, i) || '/';
}

/**
 * Run projections and commit their documents in one commit.
 *
 * @example
 * const report = await runProjections({ spec, client: octokit, store, mode: 'project' });
 * console.log(report.changed ? `committed ${report.version}` : 'no changes');
 */
export async function runProjections(options: RunOptions): Promise<RunReport> {
  const { spec, store } = options;
  // Writes go through the document layer (same validation and bytes as DocumentStore.put); the state
  // files ride along as `_docdb/` metadata ops of the same commit.
  const documents = new DocumentStore(store);
  const selected = selectProjections(spec, options.only);

  // Every reducer is resolved, confined, imported and checked before the first request (docs promise
  // that inputs and spec are checked first); custom modules start their worker threads here.
  const reducers = new Map<string, LoadedReducer>();
  try {
    const baseDir = options.baseDir ?? dirnameOf(spec.file);
    for (const p of selected) {
      reducers.set(
        p.name,
        await loadReducer(p, baseDir, spec.file, {
          confineTo: options.confineReducersTo ?? options.workspace ?? baseDir,
          ...(options.reducerTimeoutMs !== undefined ? { timeoutMs: options.reducerTimeoutMs } : {}),
        }),
      );
    }
    return await runLoaded(options, selected, reducers, documents);
  } finally {
    await Promise.all([...reducers.values()].map((r) => r.close()));
  }
}

async function runLoaded(
  options: RunOptions,
  selected: ProjectionSpec[],
  reducers: ReadonlyMap<string, LoadedReducer>,
  documents: DocumentStore,
): Promise<RunReport> {
  const { spec, client, store } = options;
  const mode = options.mode ?? 'project';
  const log = options.log ?? (() => {});

  // One listing of the tip: blob SHAs of every document (for change detection and prune) and the state files.
  const tip = await store.head();
  const existing = new Map<string, string>();
  if (tip) {
    const listing = await store.list({ version: tip });
    for (const e of listing.entries) existing.set(e.key, e.blobSha);
  }

  // Document changes stream into the commit as they are found (streamed-commit.ts); a dry run only lists them.
  const changes: DocumentOp[] = [];
  const pendingState: DocumentOp[] = [];
  const message = () => withTrailers(options.commitMessage || defaultMessage(reports, mode), options.trailers ?? []);
  const out = mode === 'dry-run' ? undefined : new StreamedCommit(documents, message);
  const emit = out
    ? (op: DocumentOp) => out.add(op)
    : async (op: DocumentOp) => {
        changes.push(op);
      };
  const reports: ProjectionReport[] = [];
  const claimed = new Map<string, string>(); // key → projection, to catch two items/projections on one id
  let unchangedTotal = 0;
  const budget = new RateBudget(options.minRateLimit ?? 0);
  const env =
    options.env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const read = {
    client: budgetedClient(client, budget),
    budget,
    perPage: options.perPage ?? 100,
    apiUrl: apiBaseOf(client, options.apiUrl),
    fetch: options.fetch ?? globalThis.fetch,
    env,
    workspace: options.workspace ?? '.',
    log,
  };

  try {
    await projectAll();
  } catch (e) {
    await out?.abort(e);
    throw e;
  }
  async function projectAll() {
    for (const p of selected) {
      const reducer = reducers.get(p.name) as LoadedReducer;
      const sKey = stateKey(p.name, options.shard);
      options.onProjection?.start(p.name);
      let run: Awaited<ReturnType<typeof runProjection>>;
      try {
        const stateGet = existing.has(sKey) && tip ? await store.get(sKey, { version: tip }) : null;
        run = await runProjection({
          p,
          specFile: spec.file,
          mode,
          reducer,
          fingerprint: fingerprintOf(p, reducer),
          stateKey: sKey,
          oldState: parseState(stateGet?.value),
          existing,
          claimed,
          shard: options.shard,
          tokenIdentity: options.tokenIdentity,
          read,
          emit,
        });
      } catch (e) {
        throw withProjection(e, reports, spec, p.name);
      } finally {
        options.onProjection?.end(p.name);
      }
      if (run.state) pendingState.push(run.state);
      unchangedTotal += run.report.unchanged;
      reports.push(run.report);
    }
  }

  // State files go last so the document changes stay in spec order in the commit.
  changes.push(...pendingState);
  const keys = reports.flatMap((r) => [...r.added, ...r.changed, ...r.removed]).sort();
  const base = {
    mode,
    ref: store.ref,
    projections: reports,
    unchanged: unchangedTotal,
    keys,
    ...(options.shard ? { shard: options.shard } : {}),
  };
  const isDelete = (c: DocumentOp) => c.op === 'delete' || (c.op === 'meta' && c.value === null);
  const writtenKeys = changes.filter((c) => !isDelete(c)).map(opKey);
  const deletedKeys = changes.filter(isDelete).map(opKey);
  if (mode === 'dry-run') {
    log(`dry-run: would write ${writtenKeys.length} and delete ${deletedKeys.length} key(s); nothing written`);
    return { ...base, changed: false, version: tip, previousVersion: tip, written: writtenKeys, deleted: deletedKeys };
  }
  let write: WriteResult | undefined;
  try {
    write = await out?.finish(pendingState);
  } catch (e) {
    throw withProjection(e, reports, spec);
  }
  if (!write) {
    log('no document changed: no commit, no write request');
    return { ...base, changed: false, version: tip, previousVersion: tip, written: [], deleted: [] };
  }
  // If another run advanced the section first, the store rebased these changes onto its tip, where some
  // may already have been made. Report what the commit really did, so outputs and summary match it.
  const didWrite = new Set(write.written);
  const didDelete = new Set(write.deleted);
  let reconciled = 0;
  for (const r of reports) {
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
    base.keys = reports.flatMap((r) => [...r.added, ...r.changed, ...r.removed]).sort();
  }
  if (!write.changed) log('no document changed: no commit');
  else {
    const meta = write.written.filter((k) => k.startsWith('_docdb/')).length;
    log(
      `committed ${write.version}: ${write.written.length - meta} document(s) written, ${write.deleted.length} deleted` +
        (meta ? ` (+${meta} incremental-state key${meta === 1 ? '' : 's'})` : ''),
    );
  }
  return {
    ...base,
    changed: write.changed,
    version: write.version,
    previousVersion: write.previousVersion ?? tip,
    written: write.written,
    deleted: write.deleted,
    write,
  };
}

function selectProjections(spec: Spec, only: readonly string[] | undefined): ProjectionSpec[] {
  if (!only || only.length === 0) return spec.projections;
  const names = spec.projections.map((p) => p.name);
  const unknown = only.filter((n) => !names.includes(n));
  if (unknown.length > 0) {
    throw new InvalidSpec(
      `projections input names ${unknown.map((u) => JSON.stringify(u)).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not in ${spec.file}; it defines ${names.join(', ')}`,
      { file: spec.file, line: 0, field: 'projections', unknown },
    );
  }
  return spec.projections.filter((p) => only.includes(p.name));
}

function defaultMessage(reports: ProjectionReport[], mode: RunMode): string {
  const parts = reports
    .filter((r) => r.added.length + r.changed.length + r.removed.length > 0)
    .map((r) => `${r.name} (+${r.added.length} ~${r.changed.length} -${r.removed.length})`);
  return `docdb: ${mode === 'backfill' ? 'backfill' : 'project'} ${parts.length ? parts.join(', ') : 'state'}`;
}

/** Append git trailers (`Key: value` lines after a blank line), as `git interpret-trailers` lays them out. */
function withTrailers(message: string, trailers: readonly string[]): string {
  if (trailers.length === 0) return message;
  return `${message.replace(/\s+$/, '')}\n\n${trailers.join('\n')}\n`;
}

/**
 * A document over the size limit is found by the store, which names the key; the run adds which projection
 * produced it and where that projection is in the spec. Matched by name: the class lives in the core.
 */
/**
 * Name the projection in a DocumentTooLarge: the one whose report lists the key, else `current` (the
 * projection running when a streamed part was refused).
 */
function withProjection(e: unknown, reports: readonly ProjectionReport[], spec: Spec, current?: string): unknown {
  const err = e as { name?: string; message?: string; data?: Record<string, unknown> };
  if (err?.name !== 'DocumentTooLarge' || typeof err.message !== 'string' || err.data?.projection !== undefined) {
    return e;
  }
  const key = typeof err.data?.key === 'string' ? err.data.key : undefined;
  const name =
    (key ? reports.find((r) => r.added.includes(key) || r.changed.includes(key)) : undefined)?.name ?? current;
  if (!name) return e;
  const p = spec.projections.find((q) => q.name === name);
  const where = p ? `, ${spec.file}:${p.lines.reducer}` : '';
  err.message = `${err.message.replace(/\.$/, '')} (projection "${name}"${where})`;
  if (err.data && typeof err.data === 'object') {
    err.data.projection = name;
    if (p) {
      err.data.file ??= spec.file;
      err.data.line ??= p.lines.reducer;
    }
  }
  return e;
}

function opKey(op: DocumentOp): string {
  return op.op === 'meta' ? op.key : op.op === 'put' ? deriveKey(identityOf(op.document)) : deriveKey(op.identity);
}
