/**
 * One projection of a run: read its source page by page, render each item's identity, reduce it, compare
 * the envelope's blob SHA with the section's tip, and collect only the changes (plus prune deletions and
 * the state file). Pages known unchanged through a 304 keep the documents they produced last time.
 * Nothing is written here: run.ts commits every projection's changes in one commit.
 */
import { InvalidSpec } from '../core/errors.js';
import { blobSha } from '../core/git/objects.js';
import type { DocumentOp } from '../document/document-store.js';
import { encodeEnvelope } from '../document/envelope.js';
import { deriveKey, parseKey } from '../document/identity.js';
import type { LoadedReducer, ReducerContext } from './reducers/index.js';
import { ReducerCallError } from './reducers/index.js';
import { encodeState, type ProjectionState } from './run-state.js';
import { inShard, type Shard } from './shard.js';
import type { ReadContext } from './sources/index.js';
import {
  ConditionalBook,
  readSource,
  type SourceItem,
  supportsIncremental,
  trustedConditional,
} from './sources/index.js';
import type { ProjectionSpec } from './spec/index.js';
import { itemVariables, parseTemplate, renderTemplate, templateVariables } from './spec/index.js';

export interface ProjectionReport {
  name: string;
  source: string;
  repositories: string[];
  /** Whether the run fetched only items updated since the stored watermark. */
  incremental: boolean;
  /** Source items seen (in this run's shard). */
  items: number;
  /** Items the reducer skipped (returned null) or that no longer match the source filter. */
  skipped: number;
  /** Pages the server answered 304 Not Modified (their documents are unchanged). */
  notModified: number;
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: number;
}

export interface ProjectionRun {
  report: ProjectionReport;
  /** Document puts and deletes, in source order (empty when they were given to `emit`). */
  changes: DocumentOp[];
  /** The state file write, when it must be committed. */
  state?: DocumentOp;
}

export interface ProjectionInput {
  p: ProjectionSpec;
  specFile: string;
  mode: 'project' | 'backfill' | 'dry-run';
  reducer: LoadedReducer;
  fingerprint: string;
  stateKey: string;
  oldState: ProjectionState | undefined;
  /** Blob SHA of every key at the section's tip. */
  existing: ReadonlyMap<string, string>;
  /** key → projection that produced it in this run (shared by all projections of the run). */
  claimed: Map<string, string>;
  shard: Shard | undefined;
  /** Token identity for conditional reads (undefined: off). */
  tokenIdentity: string | undefined;
  /** The run's read context without the per-projection parts (book, since, wants). */
  read: Omit<ReadContext, 'book' | 'since' | 'wants'>;
  /**
   * Where document puts and deletes go as they are found (run.ts streams them into the commit); without
   * it they are collected in `changes`.
   */
  emit?: (op: DocumentOp) => Promise<void>;
}

const REPO_VARS = new Set(['owner', 'name', 'repo']);

/** Read, reduce and diff one projection. */
export async function runProjection(input: ProjectionInput): Promise<ProjectionRun> {
  const { p, specFile, mode, reducer, fingerprint, oldState, existing, claimed, shard } = input;
  const log = input.read.log;
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
    repositories: 'repositories' in p.source ? p.source.repositories : [],
    incremental,
    items: 0,
    skipped: 0,
    notModified: 0,
    added: [],
    changed: [],
    removed: [],
    unchanged: 0,
  };
  const idParts = parseTemplate(p.identity.id);
  const scope = `${p.identity.namespace}/${p.identity.type}/`;
  const keyOf = (vars: Record<string, string | number | undefined>) =>
    deriveKey({ namespace: p.identity.namespace, doc_type: p.identity.type, id: renderTemplate(idParts, vars) });
  const book = new ConditionalBook(
    oldState?.fingerprint === fingerprint
      ? trustedConditional(oldState.conditional, input.read.apiUrl, input.read.log)
      : undefined,
    input.tokenIdentity,
    (k) => existing.has(k),
    mode !== 'backfill',
  );
  // With a shard and an identity that depends on the repository alone, other shards' repositories are not even read.
  const byRepository =
    shard && p.source.type === 'repository' && templateVariables(p.identity.id).every((v) => REPO_VARS.has(v));
  const ctx: ReadContext = {
    ...input.read,
    book,
    ...(incremental ? { since: (r: string) => oldState?.watermarks[r] } : {}),
    ...(byRepository
      ? {
          wants: (r: string) => {
            const i = r.indexOf('/');
            return inShard(keyOf({ owner: r.slice(0, i), name: r.slice(i + 1), repo: r }), shard);
          },
        }
      : {}),
  };
  const changes: DocumentOp[] = [];
  const emit =
    input.emit ??
    (async (op: DocumentOp) => {
      changes.push(op);
    });
  const produced = new Set<string>();
  const unmatched = new Set<string>();
  const watermarks: Record<string, string> = {};
  const fail = (line: number, field: string, message: string, data: Record<string, unknown> = {}, cause?: unknown) =>
    new InvalidSpec(
      `${specFile}:${line}: projections.${p.name}.${field}${message}`,
      {
        file: specFile,
        line,
        field: `projections.${p.name}.${field.split(':')[0]}`,
        ...data,
      },
      cause === undefined ? undefined : { cause },
    );

  const claim = (key: string, id: string) => {
    const owner = claimed.get(key);
    if (owner !== undefined) {
      throw fail(
        p.lines.id,
        'identity.id',
        owner === p.name
          ? `: two items map to the same id ${JSON.stringify(id)}; make the template unique (e.g. include {repo} and {number})`
          : `: document ${key} is also written by projection "${owner}"`,
        { key },
      );
    }
    claimed.set(key, p.name);
    produced.add(key);
    unmatched.delete(key);
  };

  /** Reduce one item; returns the document key it produced, or undefined when skipped or in another shard. */
  const process = async (it: SourceItem): Promise<string | undefined> => {
    const from = it.repository || 'the source';
    let id: string;
    try {
      id = renderTemplate(idParts, itemVariables(idParts, it.vars, it.item));
    } catch (e) {
      throw fail(p.lines.id, 'identity.id', `: ${(e as Error).message} (item from ${from})`);
    }
    let key: string;
    try {
      key = deriveKey({ namespace: p.identity.namespace, doc_type: p.identity.type, id });
    } catch (e) {
      throw fail(
        p.lines.id,
        'identity.id',
        `: template ${JSON.stringify(p.identity.id)} produced id ${JSON.stringify(id)} (item from ${from}), which is not a valid document id: ${(e as Error).message}`,
        {},
        e,
      );
    }
    if (!inShard(key, shard)) return undefined;
    report.items++;
    if (it.updatedAt && it.repository) {
      const mark = watermarks[it.repository];
      if (!mark || it.updatedAt > mark) watermarks[it.repository] = it.updatedAt;
    }
    if (!it.matches) {
      unmatched.add(key);
      report.skipped++;
      return undefined;
    }
    const context: ReducerContext = {
      projection: p.name,
      source: p.source.type,
      repository: it.repository,
      owner: String(it.vars.owner ?? ''),
      name: String(it.vars.name ?? ''),
      identity: { namespace: p.identity.namespace, type: p.identity.type, id },
    };
    let data: unknown;
    try {
      data = await reducer.reduce(it.item, context);
    } catch (e) {
      if (e instanceof ReducerCallError && e.kind === 'timeout') {
        throw fail(
          p.lines.reducer,
          'reducer',
          ` (projection "${p.name}") ${e.message} on ${key} and was stopped; make it faster or raise the reducer time limit`,
          { key, reason: 'timeout', projection: p.name },
          e,
        );
      }
      if (e instanceof ReducerCallError && e.kind === 'unclonable') {
        throw fail(
          p.lines.reducer,
          'reducer',
          ` returned data for ${key} that cannot be stored as JSON: ${e.message}`,
          { key, projection: p.name },
          e,
        );
      }
      throw fail(
        p.lines.reducer,
        'reducer',
        ` failed on ${key}: ${(e as Error)?.message ?? String(e)}`,
        { key, projection: p.name },
        e,
      );
    }
    if (data === null || data === undefined) {
      unmatched.add(key);
      report.skipped++;
      return undefined;
    }
    if (typeof data !== 'object' || Array.isArray(data)) {
      throw fail(
        p.lines.reducer,
        'reducer',
        ` returned ${Array.isArray(data) ? 'an array' : typeof data} for ${key}; a reducer must return a plain object (the document's data) or null to skip`,
        { key },
      );
    }
    claim(key, id);
    const document = { namespace: p.identity.namespace, type: p.identity.type, id, data };
    let bytes: Uint8Array;
    try {
      bytes = encodeEnvelope(document);
    } catch (e) {
      throw fail(
        p.lines.reducer,
        'reducer',
        ` returned data for ${key} that cannot be stored as JSON: ${(e as Error).message}`,
        { key },
        e,
      );
    }
    const before = existing.get(key);
    if (before === blobSha(bytes)) report.unchanged++;
    else {
      // Only changed documents go on (streamed into the commit by run.ts); unchanged ones are dropped here.
      await emit({ op: 'put', document });
      (before === undefined ? report.added : report.changed).push(key);
    }
    return key;
  };

  // Watermarks of repositories this run sees no item of (or that left an `owner/*` selection) carry over.
  if (incremental && oldState) Object.assign(watermarks, oldState.watermarks);
  log(
    `[${p.name}] ${p.source.type}${report.repositories.length ? ` of ${report.repositories.join(', ')}` : ''}${incremental ? ' (incremental)' : mode === 'backfill' ? ' (backfill)' : ''}${shard && shard.count > 1 ? ` [shard ${shard.index}/${shard.count}]` : ''}`,
  );
  for await (const page of readSource(ctx, p.source)) {
    if (page.conditional?.notModified) {
      // 304: the documents this page produced last time are unchanged (their keys are all still in the tip).
      const keys = book.previous(page.conditional.key)?.keys ?? [];
      for (const key of keys) {
        claim(key, key);
        report.unchanged++;
      }
      book.addKeys(page.conditional.key, keys);
      report.notModified++;
      log(
        `[${p.name}]   ${page.repository} page ${page.page}: not modified (304), ${keys.length} document(s) unchanged`,
      );
      continue;
    }
    const pageKeys: string[] = [];
    for (const it of page.items) {
      const key = await process(it);
      if (key) pageKeys.push(key);
    }
    if (page.conditional) book.addKeys(page.conditional.key, pageKeys);
    log(`[${p.name}]   ${page.repository} page ${page.page}: ${page.items.length} item(s), ${report.items} so far`);
  }

  if (p.prune) {
    // A full run saw every item, so anything else in the scope (of this shard) is gone; an incremental run only
    // knows about the items it saw that stopped matching.
    const candidates = incremental
      ? [...unmatched]
      : [...existing.keys()].filter((k) => k.startsWith(scope) && !produced.has(k) && inShard(k, shard));
    for (const key of candidates) {
      if (!existing.has(key) || produced.has(key)) continue;
      const gone = parseKey(key);
      if (!gone) continue; // not a document key (cannot happen inside a <namespace>/<type>/ scope)
      await emit({ op: 'delete', identity: gone });
      report.removed.push(key);
    }
  }

  const conditional = book.toState();
  let state: DocumentOp | undefined;
  if (supportsIncremental(p.source.type) || conditional) {
    // The state is committed with document changes, or when it is new or its fingerprint changed. A watermark
    // or ETag that only moved (items updated in ways the reducer ignores) is not worth a commit on its own:
    // the next run simply re-reads those few items.
    const bytes = encodeState({ version: 1, fingerprint, watermarks, ...(conditional ? { conditional } : {}) });
    const docChanges = report.added.length + report.changed.length + report.removed.length;
    if (
      input.existing.get(input.stateKey) !== blobSha(bytes) &&
      (docChanges > 0 || oldState?.fingerprint !== fingerprint)
    ) {
      state = { op: 'meta', key: input.stateKey, value: bytes };
    }
  }
  log(
    `[${p.name}] ${report.items} item(s): ${report.added.length} added, ${report.changed.length} changed, ${report.removed.length} removed, ${report.unchanged} unchanged${report.skipped ? `, ${report.skipped} skipped` : ''}${report.notModified ? `, ${report.notModified} page(s) not modified` : ''}`,
  );
  return { report, changes, ...(state ? { state } : {}) };
}
