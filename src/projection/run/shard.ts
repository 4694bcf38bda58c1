/**
 * `shard: i/n` — fan a projection out over n jobs of an Actions matrix. Each document belongs to exactly
 * one shard, by a hash of its key (lower-cased, so a repository named in any casing lands in the same
 * shard), so shards never write, prune or race over the same document; they only share the section ref,
 * whose fast-forward retry lets all of them land.
 */
import { utf8 } from '../../core/bytes.js';
import { InvalidConfig } from '../../core/errors.js';
import { sha1Hex } from '../../core/git/sha1.js';
import { ACTION_INPUT_NAMES, type InputNames } from '../../core/input-names.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Parse `i/n` (1 ≤ i ≤ n ≤ 256): ASCII digits without leading zeros, a slash, nothing else — one
 * spelling per shard, so `1/4` and ` 01 / 04` cannot name the same shard in two ways. `names` (the entry point's
 * vocabulary) names the input or flag in the error and words its example.
 *
 * @example
 * parseShard('2/4'); // { index: 2, count: 4 }
 */
export function parseShard(text: string, names: InputNames = ACTION_INPUT_NAMES): Shard {
  const field = names.label('shard');
  const m = /^([1-9][0-9]{0,2})\/([1-9][0-9]{0,2})$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || count > 256 || index < 1 || index > count) {
    throw new InvalidConfig(
      field,
      `${field}: ${JSON.stringify(text)} must be "i/n" (digits only, no spaces or leading zeros) with 1 <= i <= n <= 256, ${names.example('shard')}`,
      { allowed: 'i/n' },
    );
  }
  return { index, count };
}

/**
 * The shard (1-based) a document key belongs to among `count`.
 *
 * @example
 * shardOf('github/repo/octo/hello.json', 4); // a number from 1 to 4, the same for every casing of the key
 */
export function shardOf(key: string, count: number): number {
  if (count <= 1) return 1;
  const h = Number.parseInt(sha1Hex(utf8(key.toLowerCase())).slice(0, 8), 16);
  return (h % count) + 1;
}

/**
 * Whether `key` belongs to `shard` (always true without sharding).
 *
 * @example
 * inShard('github/repo/octo/hello.json', undefined); // true: without sharding every key belongs
 */
export function inShard(key: string, shard: Shard | undefined): boolean {
  return !shard || shard.count <= 1 || shardOf(key, shard.count) === shard.index;
}
