/**
 * The projection runner: spec → sources (page by page) → reducers → envelopes → ONE atomic commit.
 *
 * - Unchanged documents are detected locally by git blob SHA against the section's tip tree, so a
 *   run where nothing changed sends no write request and makes no commit.
 * - Incremental state (the `since` watermark of issues/pulls) lives in the section itself under
 *   `_docdb/state/<projection>.json`, committed with the documents: runs are stateless.
 * - Everything is collected before the single commit: a failure anywhere means no commit at all.
 */
import { fromUtf8, utf8 } from '../core/bytes.js';
import { InvalidSpec } from '../core/errors.js';
import { blobSha } from '../core/git/objects.js';
import type { RefStore, WriteResult } from '../core/refstore.js';
import { type DocumentOp, DocumentStore } from '../document/document-store.js';
import { encodeEnvelope, identityOf } from '../document/envelope.js';
import { deriveKey, parseKey } from '../document/identity.js';
import { type LoadedReducer, loadReducer, type ReducerContext } from './reducers.js';
import { fetchSource, type SourceClient, supportsIncremental } from './sources.js';
import type { ProjectionSpec, Spec } from './spec.js';
import { parseTemplate, renderTemplate } from './template.js';

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
}

export interface ProjectionReport {
  name: string;
  source: string;
  repositories: string[];
  /** Whether the run fetched only items updated since the stored watermark. */
  incremental: boolean;
  /** Source items seen. */
  items: number;
  /** Items the reducer skipped (returned null) or that no longer match the source filter. */
  skipped: number;
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: number;
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
}

/** Key of a projection's incremental state. `_docdb/` is reserved for docdb metadata. */
export function stateKey(projection: string): string {
  return `_docdb/state/${projection}.json`;
}

interface ProjectionState {
  version: 1;
  /** Hash of the projection's source/identity/reducer config: when it changes, the next run re-projects everything. */
  fingerprint: string;
  /** Per source repository: the `updated_at` of the newest item seen. */
  watermarks: Record<string, string>;
}

function fingerprintOf(p: ProjectionSpec, reducer: LoadedReducer): string {
  return blobSha(utf8(JSON.stringify({ source: p.source, identity: p.identity, reducer: reducer.fingerprint })));
}

function parseState(bytes: Uint8Array | undefined): ProjectionState | undefined {
  if (!bytes) return undefined;
  try {
    const s = JSON.parse(fromUtf8(bytes)) as ProjectionState;
    return s && s.version === 1 && typeof s.fingerprint === 'string' && s.watermarks ? s : undefined;
  } catch {
    return undefined; // A damaged state file only costs a full re-projection.
  }
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
  const { spec, client, store } = options;
  const mode = options.mode ?? 'project';
  const log = options.log ?? (() => {});
  // Writes go through the document layer (same validation and bytes as DocumentStore.put); the state
  // files ride along as `_docdb/` metadata ops of the same commit.
  const documents = new DocumentStore(store);
  const selected = selectProjections(spec, options.only);

  // One listing of the tip: blob SHAs of every document (for change detection and prune) and the state files.
  const tip = await store.head();
  const existing = new Map<string, string>();
  if (tip) {
    const listing = await store.list({ version: tip });
    for (const e of listing.entries) existing.set(e.key, e.blobSha);
  }

  const changes: DocumentOp[] = [];
  const pendingState: DocumentOp[] = [];
  const reports: ProjectionReport[] = [];
  const claimed = new Map<string, string>(); // key → projection, to catch two items/projections on one id
  let unchangedTotal = 0;

  for (const p of selected) {
    const reducer = await loadReducer(p, options.baseDir ?? dirnameOf(spec.file), spec.file);
    const fingerprint = fingerprintOf(p, reducer);
    const sKey = stateKey(p.name);
    const stateGet = existing.has(sKey) && tip ? await store.get(sKey, { version: tip }) : null;
    const oldState = parseState(stateGet?.value);
    const canIncrement = mode !== 'backfill' && supportsIncremental(p.source.type);
    const incremental = canIncrement && oldState?.fingerprint === fingerprint;
    if (canIncrement && oldState && !incremental) {
      log(
        `[${p.name}] the projection's source, identity or reducer changed since the last run: re-projecting everything`,
      );
    }
    const report: ProjectionReport = {
      name: p.name,
      source: p.source.type,
      repositories: p.source.repositories,
      incremental,
      items: 0,
      skipped: 0,
      added: [],
      changed: [],
      removed: [],
      unchanged: 0,
    };
    const idParts = parseTemplate(p.identity.id);
    const scope = `${p.identity.namespace}/${p.identity.type}/`;
    const produced = new Set<string>();
    const unmatched = new Set<string>();
    const watermarks: Record<string, string> = {};

    for (const repository of p.source.repositories) {
      const since = incremental ? oldState?.watermarks[repository] : undefined;
      let mark = since;
      let seen = 0;
      log(
        `[${p.name}] ${p.source.type} of ${repository}${since ? ` updated since ${since}` : mode === 'backfill' ? ' (backfill)' : ''}`,
      );
      for await (const page of fetchSource(client, p.source, repository, {
        ...(since ? { since } : {}),
        ...(options.perPage ? { perPage: options.perPage } : {}),
        ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}),
      })) {
        for (const it of page.items) {
          report.items++;
          seen++;
          if (it.updatedAt && (!mark || it.updatedAt > mark)) mark = it.updatedAt;
          let id: string;
          try {
            id = renderTemplate(idParts, it.vars);
          } catch (e) {
            throw new InvalidSpec(
              `${spec.file}:${p.lines.id}: projections.${p.name}.identity.id: ${(e as Error).message} (item from ${repository})`,
              { file: spec.file, line: p.lines.id, field: `projections.${p.name}.identity.id` },
            );
          }
          const identity = { namespace: p.identity.namespace, doc_type: p.identity.type, id };
          let key: string;
          try {
            key = deriveKey(identity);
          } catch (e) {
            throw new InvalidSpec(
              `${spec.file}:${p.lines.id}: projections.${p.name}.identity.id: template ${JSON.stringify(p.identity.id)} produced id ${JSON.stringify(id)} (item from ${repository}), which is not a valid document id: ${(e as Error).message}`,
              { file: spec.file, line: p.lines.id, field: `projections.${p.name}.identity.id` },
              { cause: e },
            );
          }
          if (!it.matches) {
            unmatched.add(key);
            report.skipped++;
            continue;
          }
          const context: ReducerContext = {
            projection: p.name,
            source: p.source.type,
            repository,
            owner: String(it.vars.owner),
            name: String(it.vars.name),
            identity: { namespace: p.identity.namespace, type: p.identity.type, id },
          };
          let data: unknown;
          try {
            data = await reducer.reduce(it.item, context);
          } catch (e) {
            throw new InvalidSpec(
              `${spec.file}:${p.lines.reducer}: projections.${p.name}.reducer failed on ${key}: ${(e as Error)?.message ?? String(e)}`,
              { file: spec.file, line: p.lines.reducer, field: `projections.${p.name}.reducer`, key },
              { cause: e },
            );
          }
          if (data === null || data === undefined) {
            unmatched.add(key);
            report.skipped++;
            continue;
          }
          if (typeof data !== 'object' || Array.isArray(data)) {
            throw new InvalidSpec(
              `${spec.file}:${p.lines.reducer}: projections.${p.name}.reducer returned ${Array.isArray(data) ? 'an array' : typeof data} for ${key}; a reducer must return a plain object (the document's data) or null to skip`,
              { file: spec.file, line: p.lines.reducer, field: `projections.${p.name}.reducer`, key },
            );
          }
          const owner = claimed.get(key);
          if (owner !== undefined) {
            throw new InvalidSpec(
              owner === p.name
                ? `${spec.file}:${p.lines.id}: projections.${p.name}.identity.id: two items map to the same id ${JSON.stringify(id)}; make the template unique (e.g. include {repo} and {number})`
                : `${spec.file}:${p.lines.id}: projections.${p.name}.identity: document ${key} is also written by projection "${owner}"`,
              { file: spec.file, line: p.lines.id, field: `projections.${p.name}.identity.id`, key },
            );
          }
          claimed.set(key, p.name);
          produced.add(key);
          unmatched.delete(key);
          const document = { namespace: p.identity.namespace, type: p.identity.type, id, data };
          let bytes: Uint8Array;
          try {
            bytes = encodeEnvelope(document);
          } catch (e) {
            throw new InvalidSpec(
              `${spec.file}:${p.lines.reducer}: projections.${p.name}.reducer returned data for ${key} that cannot be stored as JSON: ${(e as Error).message}`,
              { file: spec.file, line: p.lines.reducer, field: `projections.${p.name}.reducer`, key },
              { cause: e },
            );
          }
          const before = existing.get(key);
          if (before === blobSha(bytes)) {
            report.unchanged++;
            continue;
          }
          // Only changed documents are kept in memory until the commit; unchanged ones are dropped here.
          changes.push({ op: 'put', document });
          (before === undefined ? report.added : report.changed).push(key);
        }
        log(`[${p.name}]   ${repository} page ${page.page}: ${page.items.length} item(s), ${seen} so far`);
      }
      if (mark) watermarks[repository] = mark;
    }

    if (p.prune) {
      // A full run saw every item, so anything else in the scope is gone; an incremental run only knows
      // about the items it saw that stopped matching.
      const candidates = incremental
        ? [...unmatched]
        : [...existing.keys()].filter((k) => k.startsWith(scope) && !produced.has(k));
      for (const key of candidates) {
        if (!existing.has(key) || produced.has(key)) continue;
        const gone = parseKey(key);
        if (!gone) continue; // not a document key (cannot happen inside a <namespace>/<type>/ scope)
        changes.push({ op: 'delete', identity: gone });
        report.removed.push(key);
      }
    }
    unchangedTotal += report.unchanged;

    if (supportsIncremental(p.source.type)) {
      // The state is committed with document changes, or when it is new or its fingerprint changed. A watermark
      // that only moved (items updated in ways the reducer ignores) is not worth a commit on its own: the next
      // run simply re-reads those few items.
      const state: ProjectionState = { version: 1, fingerprint, watermarks: sortObj(watermarks) };
      const bytes = utf8(`${JSON.stringify(state, null, 2)}\n`);
      const docChanges = report.added.length + report.changed.length + report.removed.length;
      if (existing.get(sKey) !== blobSha(bytes) && (docChanges > 0 || oldState?.fingerprint !== fingerprint)) {
        pendingState.push({ op: 'meta', key: sKey, value: bytes });
      }
    }
    log(
      `[${p.name}] ${report.items} item(s): ${report.added.length} added, ${report.changed.length} changed, ${report.removed.length} removed, ${report.unchanged} unchanged${report.skipped ? `, ${report.skipped} skipped` : ''}`,
    );
    reports.push(report);
  }

  // State files go last so the document changes stay in spec order in the commit.
  changes.push(...pendingState);
  const keys = reports.flatMap((r) => [...r.added, ...r.changed, ...r.removed]).sort();
  const base = { mode, ref: store.ref, projections: reports, unchanged: unchangedTotal, keys };
  const isDelete = (c: DocumentOp) => c.op === 'delete' || (c.op === 'meta' && c.value === null);
  const writtenKeys = changes.filter((c) => !isDelete(c)).map(opKey);
  const deletedKeys = changes.filter(isDelete).map(opKey);
  if (mode === 'dry-run') {
    log(`dry-run: would write ${writtenKeys.length} and delete ${deletedKeys.length} key(s); nothing written`);
    return { ...base, changed: false, version: tip, previousVersion: tip, written: writtenKeys, deleted: deletedKeys };
  }
  if (changes.length === 0) {
    log('no document changed: no commit, no write request');
    return { ...base, changed: false, version: tip, previousVersion: tip, written: [], deleted: [] };
  }
  const message = options.commitMessage || defaultMessage(reports, mode);
  const write = await documents.commit(changes, { message });
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

function sortObj(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function opKey(op: DocumentOp): string {
  return op.op === 'meta' ? op.key : op.op === 'put' ? deriveKey(identityOf(op.document)) : deriveKey(op.identity);
}
