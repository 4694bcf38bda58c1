/**
 * `shard-commit: merge`, the shard's side: the shard writes `refs/<root>/<section>.shards/<i>`, branched
 * from the section tip it starts from, so no two jobs of the matrix ever race for one ref. The ref is
 * created ON the shard's commit (the store's `startAt`: reads see the section tip until then), so a shard
 * costs 3 content-creating requests: a tree, a commit, the ref. Its commit carries the
 * `Docdb-Shard`/`Docdb-Shard-Base` trailers and a receipt (projection/run/shard-refs.ts), which the final
 * `mode: merge` job checks before folding every shard into the section in one commit.
 */
import { InvalidConfig } from '../core/errors.js';
import type { RefStore } from '../core/refstore.js';
import type { DocumentOp } from '../document/document-store.js';
import type { Shard } from '../projection/run/index.js';
import { runIdOf, shardMarkOf, shardReceipt, shardRefOf, shardTrailers } from '../projection/run/shard-refs.js';
import type { ActionTools } from './context.js';

/** Where a shard writes, and what its commit must carry. */
export interface ShardTarget {
  store: RefStore;
  trailers: string[];
  receipt: DocumentOp;
}

/**
 * The store this shard writes: its ref, starting at the section tip (a leftover of this run, or of a shard
 * that never committed, is deleted first; another run's unmerged shard is refused).
 *
 * @example
 * const target = await prepareShardRef({ index: 2, count: 4 }, tools, '4711.1', 'octo/data');
 * await runProjections({ ...options, store: target.store, trailers: target.trailers, receipt: target.receipt });
 */
export async function prepareShardRef(
  shard: Shard,
  tools: ActionTools,
  run: string,
  repository: string,
): Promise<ShardTarget> {
  if (!tools.shardRefs) {
    throw new InvalidConfig(
      'shard-commit',
      'shard-commit: merge writes shard refs through the GitHub API; with a local git section use shard-commit: direct',
    );
  }
  const { storeOn, deleteRefs } = tools.shardRefs;
  const base = await tools.store.head();
  const ref = shardRefOf(tools.ref, shard.index);
  const existing = storeOn(ref);
  const leftover = await existing.head();
  if (leftover !== null) {
    await refuseForeign(existing, ref, run, repository);
    await deleteRefs([{ ref, oid: leftover }]);
    tools.log(`removed ${ref}, left by an earlier attempt of this run or by a shard that never committed`);
  }
  tools.log(`shard ${shard.index}/${shard.count} writes ${ref}, branched from ${base ?? '(no section yet)'}`);
  return {
    store: storeOn(ref, base ?? undefined),
    trailers: shardTrailers(shard, base),
    receipt: shardReceipt({ run, shard, base }),
  };
}

/** A shard ref whose last commit is another run's shard commit holds work nobody merged yet: keep it. */
async function refuseForeign(store: RefStore, ref: string, run: string, repository: string): Promise<void> {
  const last = (await store.commits?.({ limit: 1 }))?.entries[0];
  const mark = last ? shardMarkOf(last.message) : undefined;
  if (!mark || runIdOf(mark.run) === runIdOf(run)) return;
  throw new InvalidConfig(
    'shard',
    `${ref} holds shard ${mark.shard.index}/${mark.shard.count} of another run (Docdb-Run ${mark.run} in its commit's trailers; this run is ${run}), not merged yet. Run that run's merge job (mode: merge), or delete the ref: gh api -X DELETE repos/${repository}/git/refs/${ref.replace(/^refs\//, '')}`,
    { ref, run: mark.run },
  );
}
