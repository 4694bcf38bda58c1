/**
 * `mode: merge`: fold every shard ref of a run (`refs/<root>/<section>.shards/<i>`, shard-refs.ts) into
 * the section in ONE commit, then delete the shard refs.
 *
 * - Every shard must be there and be this run's: a missing shard (failed, or not finished: its ref still
 *   at the section commit it started from) or another run's leftover fails the merge before any write, so
 *   the section is left untouched and the message names the shard.
 * - Only what changed is read: per shard, `changes` between the section commit it started from and its
 *   tip (one compare on GitHub), then the changed values with `readMany` at its tip.
 * - The fold is one commit on the section tip through `DocumentStore`, streamed in parts as a run's
 *   changes are (streamed-commit.ts): documents as documents, the shards' `_docdb/state/` files as
 *   metadata; other `_docdb/` files of a shard (its receipt, index parts) are never copied: the
 *   section's own commit path keeps its metadata exact.
 * - The fold is a compare-and-set per key (merge-guard.ts): a key someone else wrote in the section after
 *   the shards started fails the merge, nothing written, instead of being overwritten.
 * - The shard refs are deleted after the fold landed, in ONE request (GitHub: one `updateRefs` mutation),
 *   each only while it still points at the commit that was folded.
 */
import { InvalidResponse, NotFound } from '../../core/errors.js';
import { readManyFrom } from '../../core/read-many.js';
import type { ChangedKey, RefStore, WriteResult } from '../../core/refstore.js';
import { type DocumentOp, DocumentStore } from '../../document/document-store.js';
import { checkedDocumentKey, decodeEnvelope } from '../../document/envelope.js';
import { parseKey, RESERVED_PREFIX } from '../../document/identity.js';
import { MergeClaims } from './merge-guard.js';
import { withTrailers } from './run-report.js';
import { runIdOf, type ShardMark, shardMarkOf, shardRefOf } from './shard-refs.js';
import { STREAM_PART, StreamedCommit } from './streamed-commit.js';

export interface MergeOptions {
  /** The section's store. */
  section: RefStore;
  /** The store of a shard ref (`shardRefOf(section.ref, index)`), e.g. the same backend on another ref. */
  shardStore(ref: string): RefStore;
  /** How many shards the run has (`shards: n`): each of 1..n must be there. */
  count: number;
  /** This run's `Docdb-Run` value (`<run id>.<attempt>` or `local`): shards of another run are refused. */
  run: string;
  /**
   * Delete the shard refs after the fold, in one request, each only while it still points at `oid` (the
   * commit folded): a ref that moved holds work this merge did not fold, so then nothing may be deleted
   * and this throws. Not a RefStore operation: the entry point brings it (RemoteApiRefStore.deleteRefs).
   */
  deleteRefs(refs: readonly { ref: string; oid: string }[]): Promise<void>;
  /** Commit message (default names the shards); `trailers` are appended. */
  message?: string;
  trailers?: readonly string[];
  log?: (line: string) => void;
}

/** One shard as the merge found it. */
export interface MergedShard {
  index: number;
  ref: string;
  version: string;
  base: string | null;
  added: number;
  modified: number;
  removed: number;
}

export interface MergeReport {
  ref: string;
  changed: boolean;
  version: string | null;
  previousVersion: string | null;
  /** Document keys added, changed or removed by the merge commit (metadata excluded), sorted. */
  keys: string[];
  written: string[];
  deleted: string[];
  shards: MergedShard[];
  write?: WriteResult;
}

/** A shard found, with its mark, before its changes are read. */
interface FoundShard {
  index: number;
  ref: string;
  store: RefStore;
  tip: string;
  mark: ShardMark;
}

/**
 * Fold this run's n shard refs into the section in one commit and delete them.
 *
 * @example
 * const report = await mergeShards({ section, shardStore: (ref) => storeOn(ref), count: 4, run: '4711.1', deleteRef });
 * console.log(report.changed ? `merged into ${report.version}` : 'nothing to merge');
 */
export async function mergeShards(options: MergeOptions): Promise<MergeReport> {
  const log = options.log ?? (() => {});
  const found = await findShards(options);
  const shards: MergedShard[] = [];
  const owner = new Map<string, number>();
  const claims = new MergeClaims();
  const previous = await options.section.head();
  const message = () =>
    withTrailers(
      options.message || `docdb: merge ${found.length} shard(s) (${describe(shards)})`,
      options.trailers ?? [],
    );
  // The changes stream into the one commit as the runner's do: a large fold holds one part in memory.
  const documents = new DocumentStore(options.section);
  const out = new StreamedCommit(documents, message, { partSize: STREAM_PART, guard: claims.guard(options.section) });
  let write: WriteResult | undefined;
  try {
    for (const s of found) shards.push(await foldShard(s, (op) => out.add(op), owner, claims));
    write = await out.finish();
  } catch (e) {
    await out.abort(e);
    throw e;
  }
  // The shard refs go only after the fold landed: a failed fold leaves them for the next merge.
  await options.deleteRefs(found.map((s) => ({ ref: s.ref, oid: s.tip })));
  log(
    write?.changed
      ? `merged ${found.length} shard(s) into ${options.section.ref} at ${write.version}`
      : `merged ${found.length} shard(s): nothing changed in ${options.section.ref}, no commit`,
  );
  const written = write?.written ?? [];
  const deleted = write?.deleted ?? [];
  return {
    ref: options.section.ref,
    changed: write?.changed ?? false,
    version: write?.version ?? previous,
    previousVersion: write?.previousVersion ?? previous,
    keys: [...written, ...deleted].filter((k) => !k.startsWith(RESERVED_PREFIX)).sort(),
    written,
    deleted,
    shards,
    ...(write ? { write } : {}),
  };
}

function describe(shards: readonly MergedShard[]): string {
  const sum = (f: (s: MergedShard) => number) => shards.reduce((n, s) => n + f(s), 0);
  return `+${sum((s) => s.added)} ~${sum((s) => s.modified)} -${sum((s) => s.removed)}`;
}

/** Every shard 1..n, each this run's and finished — or an error naming every shard that is not. */
async function findShards(options: MergeOptions): Promise<FoundShard[]> {
  const found: FoundShard[] = [];
  const missing: number[] = [];
  const unfinished: number[] = [];
  const foreign: string[] = [];
  for (let index = 1; index <= options.count; index++) {
    const ref = shardRefOf(options.section.ref, index);
    const store = options.shardStore(ref);
    const tip = await store.head();
    if (tip === null) {
      missing.push(index);
      continue;
    }
    const last = (await store.commits?.({ limit: 1 }))?.entries[0];
    const mark = last ? shardMarkOf(last.message) : undefined;
    if (!mark) unfinished.push(index);
    else if (runIdOf(mark.run) !== runIdOf(options.run) || mark.shard.count !== options.count) {
      foreign.push(`${index} (${ref}: Docdb-Run ${mark.run}, shard ${mark.shard.index}/${mark.shard.count})`);
    } else found.push({ index, ref, store, tip, mark });
  }
  if (missing.length === options.count) throw noShards(options);
  if (missing.length + unfinished.length + foreign.length > 0) throw incomplete(options, missing, unfinished, foreign);
  return found;
}

function noShards(options: MergeOptions): NotFound {
  return new NotFound(
    `no shard refs to merge: none of ${shardRefOf(options.section.ref, 1)} … ${shardRefOf(options.section.ref, options.count)} exists. Run the shards first with shard-commit: merge (the merge job needs: the matrix job), or they were merged and deleted already; ${options.section.ref} is untouched`,
    { reason: 'no-shards', count: options.count },
  );
}

function incomplete(options: MergeOptions, missing: number[], unfinished: number[], foreign: string[]): NotFound {
  const parts: string[] = [];
  if (missing.length)
    parts.push(
      `shard(s) ${missing.join(', ')} of ${options.count} missing (a shard's ref appears with its commit: failed, not run, or not finished yet — the merge job must need: the matrix job; re-run the failed jobs, then the merge)`,
    );
  if (unfinished.length)
    parts.push(
      `shard(s) ${unfinished.join(', ')} not finished (the ref has no shard commit yet: run the merge after every shard, needs: the matrix job)`,
    );
  if (foreign.length)
    parts.push(
      `shard(s) ${foreign.join('; ')} from another run than this one (Docdb-Run ${options.run}): each shard commit names its run in the Docdb-Run trailer (git log -1 <ref>); merge that run, or delete its refs`,
    );
  return new NotFound(`cannot merge into ${options.section.ref}: ${parts.join('; ')}. Nothing was written`, {
    reason: 'incomplete',
    missing,
    unfinished,
    foreign,
  });
}

/** Emit one shard's changes (since its base); a key already folded from another shard is an error. */
async function foldShard(
  s: FoundShard,
  emit: (op: DocumentOp) => Promise<void>,
  owner: Map<string, number>,
  claims: MergeClaims,
): Promise<MergedShard> {
  const changed = await changedSince(s);
  const claim = (c: ChangedKey) => {
    const key = c.key;
    const other = owner.get(key);
    if (other !== undefined) {
      throw new InvalidResponse(
        `shards ${other} and ${s.index} both changed ${JSON.stringify(key)}: shards own disjoint keys, so one of the refs was not written by its shard; nothing was written`,
        { key, shards: [other, s.index] },
      );
    }
    owner.set(key, s.index);
    claims.add(key, {
      shard: s.index,
      base: s.mark.base,
      previous: c.previousBlobSha ?? null,
      blob: c.blobSha ?? null,
    });
  };
  const folded = (c: ChangedKey) => !c.key.startsWith(RESERVED_PREFIX) || c.key.startsWith(`${RESERVED_PREFIX}state/`);
  const puts = new Map([...changed.added, ...changed.modified].filter(folded).map((c) => [c.key, c]));
  for await (const item of readManyFrom(s.store, [...puts.keys()], { version: s.tip })) {
    claim(puts.get(item.key) as ChangedKey);
    await emit(putOp(s, item.key, item.value));
  }
  for (const c of changed.removed.filter(folded)) {
    claim(c);
    const key = c.key;
    const identity = key.startsWith(RESERVED_PREFIX) ? null : parseKey(key);
    await emit(identity ? { op: 'delete', identity } : { op: 'meta', key, value: null });
  }
  return {
    index: s.index,
    ref: s.ref,
    version: s.tip,
    base: s.mark.base,
    added: changed.added.filter(folded).length,
    modified: changed.modified.filter(folded).length,
    removed: changed.removed.filter(folded).length,
  };
}

/** The keys a shard changed since the section commit it started from (everything, when there was none). */
async function changedSince(
  s: FoundShard,
): Promise<{ added: ChangedKey[]; modified: ChangedKey[]; removed: ChangedKey[] }> {
  if (s.mark.base === null) {
    const listing = await s.store.list({ version: s.tip });
    return { added: listing.entries.map((e) => ({ key: e.key, blobSha: e.blobSha })), modified: [], removed: [] };
  }
  const diff = await s.store.changes({ from: s.mark.base, to: s.tip });
  return { added: diff.added, modified: diff.modified, removed: diff.removed };
}

/** A changed value of a shard as the op that writes it to the section; a document must be the document its key names. */
function putOp(s: FoundShard, key: string, value: Uint8Array | null): DocumentOp {
  if (value === null) {
    throw new InvalidResponse(`shard ${s.index} (${s.ref}) lists ${JSON.stringify(key)} but has no value for it`, {
      key,
    });
  }
  if (key.startsWith(RESERVED_PREFIX)) return { op: 'meta', key, value };
  // Read back from a ref anyone with write access can change: untrusted. It must decode as the envelope
  // of the very document its key names, or the merge would write it somewhere else.
  const envelope = decodeEnvelope(value, s.tip);
  const document = { namespace: envelope.namespace, type: envelope.type, id: envelope.id, data: envelope.data };
  if (checkedDocumentKey(document) !== key) {
    throw new InvalidResponse(
      `shard ${s.index} (${s.ref}) holds at ${JSON.stringify(key)} a document whose identity names another key; nothing was written`,
      { key },
    );
  }
  return { op: 'put', document };
}
