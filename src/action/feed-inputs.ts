/**
 * The Action's feed inputs (docs/feed.md): `feed` (a workspace path: the Atom feed of the section's newest
 * commits, written after the run), `feed-limit`, `feed-url` (where it is published) and, in the modes that take
 * `feed`, `viewer-url` (the viewer its entries link to; the review modes read `viewer-url` for their comment).
 * Read and checked with the other inputs, before any request; the real path is checked when the run starts.
 */
import { InvalidConfig } from '../core/errors.js';
import type { InputNames } from '../core/input-names.js';
import { httpUrl } from '../core/viewer-url.js';
import { DEFAULT_FEED_LIMIT, MAX_FEED_LIMIT } from '../export/feed/section-feed.js';

/**
 * The modes that take `feed`: those that write the section (the feed is written after the commit lands, and when
 * nothing changed). `dry-run` writes nothing; the read modes have `export-path` for files.
 */
export const FEED_MODES = ['project', 'backfill', 'merge'] as const;

export interface FeedInputs {
  /** `feed`: a path relative to the workspace. */
  path: string;
  /** `feed-limit`: how many of the newest commits it holds. */
  limit: number;
  /** `feed-url`: where it is published (its rel="self" link). */
  feedUrl?: string;
  /** `viewer-url`: the viewer each entry links to. */
  viewerUrl?: string;
}

/** The inputs that need `feed`. */
const WITH_FEED = ['feed-limit', 'feed-url'] as const;

/**
 * The feed inputs (undefined without `feed`), or `InvalidConfig` naming the input: `feed` in a mode that does not
 * write the section, on one shard of a `shard-commit: merge` fan-out (the merge job writes the section), a limit
 * out of range, an address that is not http(s).
 *
 * @example
 * readFeedInputs((n) => ({ feed: 'site/feed.xml' })[n] ?? '', { mode: 'project', shardCommit: 'direct' }, ACTION_INPUT_NAMES);
 * // { path: 'site/feed.xml', limit: 50 }
 */
export function readFeedInputs(
  get: (name: string) => string,
  run: { mode: string; shardCommit?: string; shard?: unknown },
  names: InputNames,
): FeedInputs | undefined {
  const bad = (field: string, message: string, allowed?: string): never => {
    throw new InvalidConfig(field, `${names.label(field)}: ${message}`, allowed ? { allowed } : {});
  };
  const path = get('feed');
  const feedMode = (FEED_MODES as readonly string[]).includes(run.mode);
  if (path === '') {
    for (const n of WITH_FEED) if (get(n) !== '') bad(n, 'needs feed too (the path of the feed to write)');
    if (feedMode && get('viewer-url') !== '') {
      bad('viewer-url', `in mode: ${run.mode} it is where the feed's entries link: give feed too`);
    }
    return undefined;
  }
  if (!feedMode) {
    bad(
      'feed',
      `only applies to mode: ${FEED_MODES.join(', ')}, the modes that write the section (mode is ${run.mode})`,
    );
  }
  if (run.shardCommit === 'merge' && run.mode !== 'merge' && run.shard) {
    bad(
      'feed',
      'belongs on the mode: merge job: with shard-commit: merge a shard commits to its own ref, not the section',
    );
  }
  if (path.includes('\0')) bad('feed', 'is not a path', 'a relative path inside the workspace');
  const out: FeedInputs = { path, limit: limitInput(get('feed-limit'), bad) };
  for (const [name, key] of [
    ['feed-url', 'feedUrl'],
    ['viewer-url', 'viewerUrl'],
  ] as const) {
    const v = get(name);
    if (v === '') continue;
    if (httpUrl(v) === undefined) {
      bad(name, `${JSON.stringify(v)} is not an http(s) address (e.g. https://octo.github.io/data/)`, 'an http(s) URL');
    }
    out[key] = v;
  }
  return out;
}

function limitInput(text: string, bad: (field: string, message: string, allowed?: string) => never): number {
  if (text === '') return DEFAULT_FEED_LIMIT;
  const n = /^[1-9]\d{0,8}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n <= MAX_FEED_LIMIT)) {
    bad(
      'feed-limit',
      `${JSON.stringify(text)} must be a whole number from 1 to ${MAX_FEED_LIMIT}`,
      `1-${MAX_FEED_LIMIT}`,
    );
  }
  return n;
}
