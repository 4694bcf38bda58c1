/**
 * The projection runner: spec → sources (page by page) → reducers → envelopes → ONE atomic commit.
 *
 * - Unchanged documents are detected locally by git blob SHA against the section's tip tree, so a
 *   run where nothing changed sends no write request and makes no commit.
 * - Incremental state (the `since` watermark of issues/pulls) lives in the section itself under
 *   `_docdb/state/<projection>.json`, committed with the documents: runs are stateless.
 * - Everything is collected before the single commit: a failure anywhere means no commit at all.
 */

import { appendAll } from '../../core/arrays.js';
import { InvalidSpec } from '../../core/errors.js';
import { ACTION_INPUT_NAMES, type InputNames } from '../../core/input-names.js';
import type { RefStore, WriteResult } from '../../core/refstore.js';
import { type DocumentOp, DocumentStore } from '../../document/document-store.js';
import type { CheckRunner } from '../../document/expect/types.js';
import type { TypeIndex } from '../../document/indexes/declaration.js';
import type { TypeSearch } from '../../document/search/declaration.js';
import { type LoadedReducer, loadReducer } from '../reducers/index.js';
import { apiBaseOf, budgetedClient, RateBudget } from '../sources/index.js';
import type { ProjectionSpec, Spec } from '../spec/index.js';
import { type LoadedChecks, loadChecks } from './check-modules.js';
import { expectationsOf, isExpectationsFailed, refusalOf } from './guarded-write.js';
import { refuseWorkspaceModules } from './module-refusal.js';
import type { RunMode, RunOptions, RunReport } from './options.js';
import type { ProjectionInput, ProjectionReport, ProjectionRun } from './projection-types.js';
import { writeQuarantine } from './quarantine-write.js';
import { runProjection } from './run-projection.js';
import {
  type BaseReport,
  changedKeys,
  defaultMessage,
  logWrite,
  opKey,
  reconcile,
  withProjection,
  withTrailers,
} from './run-report.js';
import { envOf, redactRunError } from './run-secrets.js';
import { loadSchemas, type TypeSchema } from './schema-files.js';
import { fingerprintOf, parseState, stateKey } from './state-file.js';
import { StreamedCommit } from './streamed-commit.js';
import { wouldBeRefusal } from './would-be.js';

/** The section as the run found it: its tip, and the blob SHA of every key there. */
interface Section {
  tip: string | null;
  existing: Map<string, string>;
}

/** What every projection of a run shares. */
interface RunScope {
  options: RunOptions;
  mode: RunMode;
  reducers: ReadonlyMap<string, LoadedReducer>;
  section: Section;
  /** Reports of the projections done so far (the commit message and error messages read them). */
  reports: ProjectionReport[];
  /** key → projection, to catch two items/projections on one id. */
  claimed: Map<string, string>;
  read: ProjectionInput['read'];
  emit: (op: DocumentOp) => Promise<void>;
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
  const selected = selectProjections(spec, options.only, options.inputNames ?? ACTION_INPUT_NAMES);

  // Every reducer is resolved, confined, imported and checked before the first request (docs promise
  // that inputs and spec are checked first); custom modules start their worker threads here.
  const reducers = new Map<string, LoadedReducer>();
  let checks: LoadedChecks | undefined;
  try {
    // Under pull_request_target (mode: review) no module of the workspace is imported: refused first.
    if (options.refuseModules) refuseWorkspaceModules(selected, spec.file, options.refuseModules);
    const baseDir = options.baseDir ?? dirnameOf(spec.file);
    // `schema:` files too: read, confined to the workspace and parsed before the first request.
    const schemas = await loadSchemas(selected, {
      specFile: spec.file,
      baseDir,
      confineTo: options.confineReducersTo ?? options.workspace ?? baseDir,
    });
    for (const p of selected) {
      reducers.set(
        p.name,
        await loadReducer(p, baseDir, spec.file, {
          confineTo: options.confineReducersTo ?? options.workspace ?? baseDir,
          ...(options.reducerTimeoutMs !== undefined ? { timeoutMs: options.reducerTimeoutMs } : {}),
        }),
      );
    }
    // `expect: { check: { module } }` modules too, under the same rules as reducers.
    checks = await loadChecks(selected, {
      specFile: spec.file,
      baseDir,
      confineTo: options.confineReducersTo ?? options.workspace ?? baseDir,
      ...(options.reducerTimeoutMs !== undefined ? { timeoutMs: options.reducerTimeoutMs } : {}),
    });
    return await runLoaded(options, selected, { reducers, schemas, checks: checks.runners }, documents);
  } catch (e) {
    // The one place a run's errors leave it: no token in them, whatever its shape (run-secrets.ts).
    throw await redactRunError(e, options);
  } finally {
    await Promise.all([...reducers.values()].map((r) => r.close()));
    await checks?.close();
  }
}

/** What is loaded before the first request: the reducers, the `schema:` declarations, the check modules. */
interface Loaded {
  reducers: ReadonlyMap<string, LoadedReducer>;
  schemas: readonly TypeSchema[];
  checks: ReadonlyMap<string, CheckRunner>;
}

async function runLoaded(
  options: RunOptions,
  selected: ProjectionSpec[],
  { reducers, schemas, checks }: Loaded,
  documents: DocumentStore,
): Promise<RunReport> {
  const mode = options.mode ?? 'project';
  const log = options.log ?? (() => {});
  const section = await readSection(options.store);
  const reports: ProjectionReport[] = [];
  // Document changes stream into the commit as they are found (streamed-commit.ts); a dry run only lists them.
  const changes: DocumentOp[] = [];
  const message = () => withTrailers(options.commitMessage || defaultMessage(reports, mode), options.trailers ?? []);
  const guarded = {
    indexes: indexesOf(selected),
    search: searchOf(selected),
    schemas,
    expect: expectationsOf(selected, checks),
  };
  // With quarantine the changes are kept: a refused commit is written again to its quarantine ref.
  const keep = options.quarantine !== undefined && guarded.expect.length > 0;
  const out = mode === 'dry-run' ? undefined : new StreamedCommit(documents, message, { ...guarded, keep });
  const emit = out ? (op: DocumentOp) => out.add(op) : async (op: DocumentOp) => void changes.push(op);
  const read = readContextOf(options, log);
  const run: RunScope = { options, mode, reducers, section, reports, claimed: new Map(), read, emit };
  let projected: { pendingState: DocumentOp[]; unchanged: number };
  try {
    projected = await projectAll(run, selected);
  } catch (e) {
    await out?.abort(e);
    // A streamed part refused by a schema surfaces here; its changes are not all known: no quarantine.
    throw await refused(e, { options, selected, out: undefined, message: message(), ...guarded });
  }
  // State files (and a shard's receipt) go last so the document changes stay in spec order in the commit.
  if (options.receipt && mode !== 'dry-run') projected.pendingState.push(options.receipt);
  appendAll(changes, projected.pendingState);
  const base: BaseReport = {
    mode,
    ref: options.store.ref,
    projections: reports,
    unchanged: projected.unchanged,
    keys: changedKeys(reports),
    ...(options.shard ? { shard: options.shard } : {}),
  };
  if (mode === 'dry-run') {
    const report = dryRun(base, changes, section.tip, log);
    if (!options.evaluate) return report;
    // A review: the would-be commit's operations, and what its guarded write would say on this tip.
    const refusal = await wouldBeRefusal(options.store, section.tip, changes, guarded, selected, section.existing);
    return { ...report, planned: { ops: changes, refusal, indexes: guarded.indexes, schemas: guarded.schemas } };
  }
  try {
    return await commit(out, projected.pendingState, base, options.spec, section.tip, log);
  } catch (e) {
    throw await refused(e, { options, selected, out, message: message(), ...guarded });
  }
}

/**
 * A commit refused by a `schema:` or `expect:` (guarded-write.ts) carries the refusal in `data.refusal`, every
 * violation pointing at its spec line; refused by expectations, with quarantine on, the would-be commit is
 * written to its quarantine ref first (quarantine-write.ts). Any other error is returned as it is.
 */
async function refused(
  e: unknown,
  r: {
    options: RunOptions;
    selected: readonly ProjectionSpec[];
    out: StreamedCommit | undefined;
    message: string;
    indexes: readonly TypeIndex[];
    search: readonly TypeSearch[];
    schemas: readonly TypeSchema[];
  },
): Promise<unknown> {
  const refusal = refusalOf(e, r.selected);
  if (!refusal) return e;
  const target = r.options.quarantine;
  if (target && isExpectationsFailed(e) && r.out) {
    try {
      const q = await writeQuarantine({
        target,
        sectionRef: r.options.store.ref,
        ops: r.out.kept(),
        base: refusal.version,
        message: r.message,
        indexes: r.indexes,
        search: r.search,
        schemas: r.schemas,
      });
      refusal.quarantine = q;
      (e as Error).message +=
        `; the would-be commit is quarantined at ${q.ref} (version ${q.version}): compare it with the section, then docdb section quarantine promote ${q.id} (or drop ${q.id})`;
      r.options.log?.(`quarantined the refused commit at ${q.ref}: ${q.version}`);
    } catch (qe) {
      // The refusal stays the run's failure: a quarantine that could not be written is said beside it.
      const why = (qe as Error)?.message ?? String(qe);
      (e as Error).message += `; quarantining the would-be commit failed too: ${why}`;
      r.options.log?.(`warning: could not quarantine the refused commit: ${why}`);
    }
  }
  (e as { data: Record<string, unknown> }).data.refusal = refusal;
  return e;
}

/** The selected projections' `index:` declarations, one per namespace/type (the spec checked they agree). */
function indexesOf(selected: readonly ProjectionSpec[]): TypeIndex[] {
  const byScope = new Map<string, TypeIndex>();
  for (const p of selected) {
    if (!p.index) continue;
    const { namespace, type } = p.identity;
    byScope.set(`${namespace}/${type}`, { namespace, type, fields: p.index });
  }
  return [...byScope.values()];
}

/** The selected projections' `search:` declarations, one per namespace/type (the spec checked they agree). */
function searchOf(selected: readonly ProjectionSpec[]): TypeSearch[] {
  const byScope = new Map<string, TypeSearch>();
  for (const p of selected) {
    if (!p.search) continue;
    const { namespace, type } = p.identity;
    byScope.set(`${namespace}/${type}`, { namespace, type, fields: p.search });
  }
  return [...byScope.values()];
}

/** One listing of the tip: blob SHAs of every document (for change detection and prune) and the state files. */
async function readSection(store: RefStore): Promise<Section> {
  const tip = await store.head();
  const existing = new Map<string, string>();
  if (tip) {
    const listing = await store.list({ version: tip });
    for (const e of listing.entries) existing.set(e.key, e.blobSha);
  }
  return { tip, existing };
}

/** The read context every projection's sources share: the budgeted client, paging, API base and environment. */
function readContextOf(options: RunOptions, log: (line: string) => void): ProjectionInput['read'] {
  const budget = new RateBudget(options.minRateLimit ?? 0);
  const env = envOf(options);
  return {
    client: budgetedClient(options.client, budget),
    budget,
    perPage: options.perPage ?? 100,
    apiUrl: apiBaseOf(options.client, options.apiUrl),
    fetch: options.fetch ?? globalThis.fetch,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    env,
    workspace: options.workspace ?? '.',
    log,
    ...(options.inputNames ? { inputNames: options.inputNames } : {}),
  };
}

/** Every selected projection in spec order; their state file writes are kept for the end of the commit. */
async function projectAll(
  run: RunScope,
  selected: ProjectionSpec[],
): Promise<{ pendingState: DocumentOp[]; unchanged: number }> {
  const pendingState: DocumentOp[] = [];
  let unchanged = 0;
  for (const p of selected) {
    const result = await projectOne(run, p);
    if (result.state) pendingState.push(result.state);
    unchanged += result.report.unchanged;
    run.reports.push(result.report);
  }
  return { pendingState, unchanged };
}

/** One projection with its stored state (read at the tip), inside the caller's per-projection hooks. */
async function projectOne(run: RunScope, p: ProjectionSpec): Promise<ProjectionRun> {
  const { options, section } = run;
  const reducer = run.reducers.get(p.name) as LoadedReducer;
  const sKey = stateKey(p.name, options.shard);
  options.onProjection?.start(p.name);
  try {
    const stateGet =
      section.existing.has(sKey) && section.tip ? await options.store.get(sKey, { version: section.tip }) : null;
    return await runProjection({
      p,
      specFile: options.spec.file,
      mode: run.mode,
      reducer,
      fingerprint: fingerprintOf(p, reducer),
      stateKey: sKey,
      oldState: parseState(stateGet?.value),
      existing: section.existing,
      claimed: run.claimed,
      shard: options.shard,
      tokenIdentity: options.tokenIdentity,
      read: run.read,
      emit: run.emit,
    });
  } catch (e) {
    throw withProjection(e, run.reports, options.spec, p.name);
  } finally {
    options.onProjection?.end(p.name);
  }
}

/** A dry run lists what it would write and delete, and writes nothing. */
function dryRun(base: BaseReport, changes: DocumentOp[], tip: string | null, log: (line: string) => void): RunReport {
  const isDelete = (c: DocumentOp) => c.op === 'delete' || (c.op === 'meta' && c.value === null);
  const written = changes.filter((c) => !isDelete(c)).map(opKey);
  const deleted = changes.filter(isDelete).map(opKey);
  // Worded as the job summary words it: documents, with docdb's own state files counted apart.
  const isDoc = (k: string) => !k.startsWith('_docdb/');
  const docs = [...written, ...deleted].filter(isDoc).length;
  const state = written.length + deleted.length - docs;
  log(
    `dry-run: ${docs} document(s) would change (${written.filter(isDoc).length} written, ${deleted.filter(isDoc).length} deleted)${state ? ` and ${state} state file(s)` : ''}; nothing written`,
  );
  return { ...base, changed: false, version: tip, previousVersion: tip, written, deleted };
}

/** Finish the one commit (or make none when nothing changed) and report what it really did. */
async function commit(
  out: StreamedCommit | undefined,
  pendingState: DocumentOp[],
  base: BaseReport,
  spec: Spec,
  tip: string | null,
  log: (line: string) => void,
): Promise<RunReport> {
  let write: WriteResult | undefined;
  try {
    write = await out?.finish(pendingState);
  } catch (e) {
    throw withProjection(e, base.projections, spec);
  }
  if (!write) {
    log('no document changed: no commit, no write request');
    return { ...base, changed: false, version: tip, previousVersion: tip, written: [], deleted: [] };
  }
  reconcile(base, write, log);
  logWrite(write, log);
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

function selectProjections(spec: Spec, only: readonly string[] | undefined, inputNames: InputNames): ProjectionSpec[] {
  if (!only || only.length === 0) return spec.projections;
  const names = spec.projections.map((p) => p.name);
  const unknown = only.filter((n) => !names.includes(n));
  if (unknown.length > 0) {
    throw new InvalidSpec(
      `${inputNames.phrase('projections')} names ${unknown.map((u) => JSON.stringify(u)).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not in ${spec.file}; it defines ${names.join(', ')}`,
      { file: spec.file, line: 0, field: 'projections', unknown },
    );
  }
  return spec.projections.filter((p) => only.includes(p.name));
}
