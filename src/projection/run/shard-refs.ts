/**
 * `shard-commit: merge`: the names and marks of shard refs. Each shard of a matrix writes its own ref,
 * `refs/<root>/<section>.shards/<i>`, branched from the section tip it started on, so shards never race
 * for the section ref; a final merge folds them into the section in one commit (merge-shards.ts).
 *
 * A shard's commit says what it is in git trailers (https://git-scm.com/docs/git-interpret-trailers):
 * `Docdb-Shard: i/n`, `Docdb-Shard-Base: <section commit it started from>` and the run's `Docdb-Run:
 * <run id>.<attempt>`, which is how a merge tells this run's shards from another run's leftovers.
 */
import { isSha } from '../../core/git/objects.js';
import { SHARDS_SUFFIX } from '../../core/refname.js';
import type { DocumentOp } from '../../document/document-store.js';
import type { Shard } from './shard.js';

/**
 * Suffix of the directory of a section's shard refs: one of the reserved spaces every entry point refuses
 * as a section (core/refname.ts RESERVED_REF_SPACES), so a shard ref can never be, or sit under, another
 * section's ref.
 */
export const SHARD_DIR_SUFFIX = SHARDS_SUFFIX;

/**
 * The metadata key every shard commit writes (its run, shard and base): a shard that changed no document
 * still makes one commit, so its ref proves it finished and names its run. The merge never folds it.
 */
export const SHARD_RECEIPT_KEY = '_docdb/shard.json';

/**
 * The ref shard `index` of a section writes.
 *
 * @example
 * shardRefOf('refs/docdb/inventory', 2); // 'refs/docdb/inventory.shards/2'
 */
export function shardRefOf(sectionRef: string, index: number): string {
  return `${sectionRef}${SHARD_DIR_SUFFIX}/${index}`;
}

/** What a shard commit's trailers say about it. */
export interface ShardMark {
  /** `Docdb-Run` as written: `<run id>.<attempt>`, or `local` outside Actions. */
  run: string;
  shard: Shard;
  /** The section commit the shard started from; null when the section did not exist yet. */
  base: string | null;
}

/**
 * The trailers of a shard commit (with the run's own `Docdb-Run`, added by the caller).
 *
 * @example
 * shardTrailers({ index: 2, count: 4 }, 'ab…'); // ['Docdb-Shard: 2/4', 'Docdb-Shard-Base: ab…']
 */
export function shardTrailers(shard: Shard, base: string | null): string[] {
  return [`Docdb-Shard: ${shard.index}/${shard.count}`, `Docdb-Shard-Base: ${base ?? 'none'}`];
}

/**
 * The receipt op a shard's commit carries (see SHARD_RECEIPT_KEY).
 *
 * @example
 * const receipt = shardReceipt({ run: '7.1', shard: { index: 1, count: 4 }, base: tip });
 */
export function shardReceipt(mark: ShardMark): DocumentOp {
  const text = `${JSON.stringify({ run: mark.run, shard: `${mark.shard.index}/${mark.shard.count}`, base: mark.base })}\n`;
  return { op: 'meta', key: SHARD_RECEIPT_KEY, value: text };
}

/**
 * The shard mark in a commit message, or undefined when the commit is not a shard commit (a section
 * commit: the shard ref was created but the shard never committed). The message is untrusted (anyone who
 * can write the repository can make a commit): only well-formed trailers count.
 *
 * @example
 * shardMarkOf('docdb: project repos\n\nDocdb-Run: 7.1\nDocdb-Shard: 2/4\nDocdb-Shard-Base: none\n'); // { run: '7.1', shard: { index: 2, count: 4 }, base: null }
 */
export function shardMarkOf(message: string): ShardMark | undefined {
  const trailers = new Map<string, string>();
  for (const line of message.split('\n')) {
    const m = /^(Docdb-[A-Za-z-]+): (\S+)\s*$/.exec(line);
    if (m) trailers.set(m[1] as string, m[2] as string);
  }
  const run = trailers.get('Docdb-Run');
  const shard = /^([1-9][0-9]{0,2})\/([1-9][0-9]{0,2})$/.exec(trailers.get('Docdb-Shard') ?? '');
  const base = trailers.get('Docdb-Shard-Base');
  if (!run || !/^[\w.-]{1,64}$/.test(run) || !shard || !base) return undefined;
  if (base !== 'none' && !isSha(base)) return undefined;
  return {
    run,
    shard: { index: Number(shard[1]), count: Number(shard[2]) },
    base: base === 'none' ? null : base.toLowerCase(),
  };
}

/**
 * The run id of a `Docdb-Run` value, without the attempt: re-running failed jobs gives the merge a new
 * attempt number while the shards that had succeeded keep theirs, so runs compare by id alone.
 *
 * @example
 * runIdOf('4711.2'); // '4711'
 */
export function runIdOf(run: string): string {
  return run.replace(/\.\d+$/, '');
}
