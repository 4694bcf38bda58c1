/**
 * `watch`: follow a section and report what changed, for the price of conditional ref reads.
 *
 * Each poll is one `store.head()`. On the GitHub API that is `GET /git/ref/…` with `If-None-Match`:
 * while nothing moved GitHub answers 304, which costs no primary rate limit when authorized
 * (https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate).
 * When the tip moves, one `store.changes({ from: last, to: tip, prefix })` names the keys, and the
 * callback runs once per move that touched `prefix`. Errors back off exponentially; a `RateLimited`
 * error waits its `Retry-After` (or until its reset). In a page, polling pauses while the tab is
 * hidden (Page Visibility API) and resumes when it is shown again.
 */
import {
  AuthInvalid,
  DocDbError,
  Forbidden,
  InvalidConfig,
  InvalidKey,
  InvalidVersion,
  RateLimited,
} from './errors.js';
import { assertValidPrefix } from './keys.js';
import type { ChangesResult, RefStore } from './refstore.js';
import { assertValidVersion, type VersionId } from './version.js';

/** The Page Visibility surface watch uses (`document` in a page). */
export interface VisibilitySource {
  readonly hidden: boolean;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
  removeEventListener(type: 'visibilitychange', listener: () => void): void;
}

export interface WatchOptions {
  /** Only report keys starting with this string. */
  prefix?: string;
  /** Milliseconds between polls (default 60,000 — GitHub's ref replies are cacheable for 60 s). */
  interval?: number;
  /** Stop watching: the promise `watch` returned resolves. */
  signal?: AbortSignal;
  /** Report changes after this version (default: the tip at the first poll; nothing before it is reported). */
  since?: VersionId;
  /** Longest wait after repeated errors (default 15 minutes). */
  maxBackoff?: number;
  /** Called for each failed poll with the wait before the next one. Permanent errors end the watch instead. */
  onError?: (error: unknown, retryInMs: number) => void;
  /** Wait function (tests inject one; it must resolve early when `signal` aborts). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Page Visibility source (default `globalThis.document` when it has `hidden`); `null` disables pausing. */
  visibility?: VisibilitySource | null;
  /** Clock in ms for `RateLimited.reset` (default `Date.now`). */
  now?: () => number;
}

/** One reported move of the section (`from` is null when the section was created since the last poll). */
export type WatchChange = Pick<ChangesResult, 'to' | 'added' | 'modified' | 'changed' | 'removed'> & {
  from: VersionId | null;
};

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function defaultVisibility(): VisibilitySource | null {
  const d = (globalThis as { document?: unknown }).document as Partial<VisibilitySource> | undefined;
  return d && typeof d.hidden === 'boolean' && typeof d.addEventListener === 'function'
    ? (d as VisibilitySource)
    : null;
}

/** Resolve once the page is visible (at once when it is, or when there is no page) or on abort. */
function whenVisible(v: VisibilitySource | null, signal?: AbortSignal): Promise<void> {
  if (!v?.hidden || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (v.hidden && !signal?.aborted) return;
      v.removeEventListener('visibilitychange', check);
      signal?.removeEventListener('abort', check);
      resolve();
    };
    v.addEventListener('visibilitychange', check);
    signal?.addEventListener('abort', check, { once: true });
  });
}

/** Errors that another poll cannot fix: the watch ends with them. */
function isPermanent(e: unknown): boolean {
  return (
    e instanceof InvalidVersion ||
    e instanceof InvalidKey ||
    e instanceof InvalidConfig ||
    e instanceof AuthInvalid ||
    e instanceof Forbidden ||
    !(e instanceof DocDbError)
  );
}

/**
 * Poll the section's tip every `interval` ms and call `onChange` once per move that touched `prefix`.
 * Resolves when `signal` aborts; rejects on a permanent error (bad version, bad token, a bug).
 *
 * @example
 * const stop = new AbortController();
 * const done = watch(store, { prefix: 'github/issue/', interval: 30_000, signal: stop.signal }, (c) => {
 *   for (const k of [...c.added, ...c.changed]) console.log('now at', c.to, k.key);
 * });
 * // later: stop.abort(); await done;
 */
export async function watch(
  store: Pick<RefStore, 'head' | 'changes' | 'list'>,
  options: WatchOptions,
  onChange: (change: WatchChange) => void | Promise<void>,
): Promise<void> {
  const prefix = options.prefix ?? '';
  assertValidPrefix(prefix);
  const interval = options.interval ?? 60_000;
  if (typeof interval !== 'number' || !Number.isFinite(interval) || interval <= 0) {
    throw new InvalidConfig('interval', `interval must be a positive number of milliseconds, got ${String(interval)}`, {
      allowed: 'milliseconds > 0',
    });
  }
  if (typeof onChange !== 'function') throw new InvalidConfig('onChange', 'watch needs an onChange callback');
  if (options.since !== undefined) assertValidVersion(options.since);
  const maxBackoff = options.maxBackoff ?? 15 * 60_000;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const visibility = options.visibility === undefined ? defaultVisibility() : options.visibility;
  const signal = options.signal;
  let last: VersionId | null | undefined = options.since;
  let failures = 0;
  while (!signal?.aborted) {
    await whenVisible(visibility, signal);
    if (signal?.aborted) break;
    let wait = interval;
    try {
      const tip = await store.head();
      if (last === undefined || tip === null) last = tip;
      else if (tip !== last) {
        const c: WatchChange =
          last === null
            ? // The section was created since the last poll: everything in it is new.
              { from: null, to: tip, added: await addedAt(store, tip, prefix), modified: [], changed: [], removed: [] }
            : await store.changes({ from: last, to: tip, prefix });
        last = tip;
        if (c.added.length + c.changed.length + c.removed.length > 0) {
          await onChange({
            from: c.from,
            to: c.to,
            added: c.added,
            modified: c.modified,
            changed: c.modified,
            removed: c.removed,
          });
        }
      }
      failures = 0;
    } catch (e) {
      if (signal?.aborted) break;
      if (isPermanent(e)) throw e;
      failures++;
      wait = Math.min(maxBackoff, interval * 2 ** failures);
      if (e instanceof RateLimited) {
        if (e.retryAfter !== undefined) wait = Math.max(wait, e.retryAfter * 1000);
        else if (e.reset !== undefined) wait = Math.max(wait, e.reset * 1000 - now());
      }
      options.onError?.(e, wait);
    }
    if (signal?.aborted) break;
    await sleep(wait, signal);
  }
}

/** Keys of a section that did not exist at the previous poll (all added). */
async function addedAt(store: Pick<RefStore, 'list'>, version: VersionId, prefix: string) {
  const listed = await store.list({ prefix, version });
  return listed.entries.map((e) => ({ key: e.key, blobSha: e.blobSha }));
}
