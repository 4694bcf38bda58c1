/**
 * The read protocol of the pure search core. A step gets files through `read(path)`: bytes, `null`
 * (absent at the tip), or `undefined` (not fetched yet). When a step needs files it has not got, it
 * throws {@link NeedFiles} listing ALL of them it can name at that point, so the caller fetches them
 * in one round at the same version and calls the step again with a reader that has them.
 */
import { InvalidConfig } from '../../core/errors.js';
import { fail, integer, isRecord, onlyKeys, ShapeProblem } from '../indexes/check.js';

/** Files at the tip: bytes; null = absent at the tip; undefined = not fetched yet. */
export type SearchRead = (path: string) => Uint8Array | null | undefined;

/**
 * Thrown when `read` returned undefined for paths the step needs: fetch `paths` at the SAME version, call again.
 *
 * @example
 * try { rankSearch(t, q, read); } catch (e) { if (e instanceof NeedFiles) fetchAll(e.paths); }
 */
export class NeedFiles extends Error {
  readonly paths: string[];
  constructor(paths: string[]) {
    super(`fetch ${paths.length} search file(s) at the same version and call again: ${paths.slice(0, 3).join(', ')}…`);
    this.name = 'NeedFiles';
    this.paths = paths;
  }
}

/**
 * Read every path of `paths`, or throw one {@link NeedFiles} naming all that are not fetched yet.
 *
 * @example
 * const [manifest] = readAll(read, [searchManifestPath('github', 'repo')]);
 */
export function readAll(read: SearchRead, paths: readonly string[]): (Uint8Array | null)[] {
  const out: (Uint8Array | null)[] = [];
  const missing: string[] = [];
  for (const p of paths) {
    const b = read(p);
    if (b === undefined) missing.push(p);
    else out.push(b);
  }
  if (missing.length > 0) throw new NeedFiles([...new Set(missing)]);
  return out;
}

export interface SearchOptions {
  /** Most serialized bytes of one term shard (default 131072). */
  maxShardBytes?: number;
  /** Most term shards of one type (default 256): GitHub's content-creation limits count every file. */
  maxShards?: number;
  /**
   * Pending bytes a delta part may hold before a write must merge its shards (default 131072): the
   * bound that may force a write past its share of shards (flush.ts).
   */
  maxDeltaPartBytes?: number;
}

export const DEFAULT_MAX_SHARD_BYTES = 128 * 1024;
export const DEFAULT_MAX_SHARDS = 256;
export const DEFAULT_MAX_DELTA_PART_BYTES = 128 * 1024;
/** Smallest shard bound: a line holds a term of up to 256 UTF-8 bytes and at least one posting. */
export const MIN_SHARD_BYTES = 512;

/**
 * Options with defaults filled in; a bad one is `InvalidConfig` naming it.
 *
 * @example
 * searchOptions({ maxShardBytes: 4096 }); // { maxShardBytes: 4096, maxShards: 256, maxDeltaPartBytes: 131072 }
 */
export function searchOptions(o: SearchOptions | undefined): Required<SearchOptions> {
  try {
    if (o !== undefined && !isRecord(o)) fail('options', 'must be an object');
    const v = (o ?? {}) as Record<string, unknown>;
    onlyKeys(v, 'options', ['maxShardBytes', 'maxShards', 'maxDeltaPartBytes']);
    const maxShardBytes =
      v.maxShardBytes === undefined
        ? DEFAULT_MAX_SHARD_BYTES
        : integer(v.maxShardBytes, 'maxShardBytes', MIN_SHARD_BYTES, 1024 * 1024);
    const maxShards = v.maxShards === undefined ? DEFAULT_MAX_SHARDS : integer(v.maxShards, 'maxShards', 1, 4096);
    // At most 512 KiB: a part regrouped after a split holds a few parts' worth, read back under 2 MiB.
    const maxDeltaPartBytes =
      v.maxDeltaPartBytes === undefined
        ? DEFAULT_MAX_DELTA_PART_BYTES
        : integer(v.maxDeltaPartBytes, 'maxDeltaPartBytes', MIN_SHARD_BYTES, 512 * 1024);
    return { maxShardBytes, maxShards, maxDeltaPartBytes };
  } catch (e) {
    if (!(e instanceof ShapeProblem)) throw e;
    throw new InvalidConfig(e.field, `search option ${e.field} ${e.problem}`);
  }
}
