/**
 * What the loader keeps in the collection's `meta` between builds: the section commit its entries hold and the
 * ETag of the ref read that named it, under the source they came from. The next build sends that ETag with
 * `If-None-Match`: an unchanged section answers 304 (no rate-limit budget) and nothing else is read. Astro keeps
 * `meta` in the same data store as the entries (and clears both together), so the commit always describes the
 * entries that are there. The store is a file in the site's cache directory: it is read as untrusted.
 */
import { isSha } from '../core/git/objects.js';
import type { LoaderMetaStore } from './context.js';
import type { ResolvedLoaderOptions } from './options.js';

/** The one meta key (one JSON value, so the commit and its ETag are always written together). */
export const META_KEY = 'docdb';

export interface Kept {
  /** The section commit the entries hold. */
  commit: string;
  /** The ETag of the ref read that returned `commit` (absent when none came). */
  etag?: string;
}

/** What the entries come from; kept state for another source (a changed repo, section, type, API) is ignored. */
export function sourceOf(o: ResolvedLoaderOptions): string {
  return `${o.apiUrl} ${o.owner}/${o.repo} ${o.ref} ${o.namespace}/${o.type}`;
}

/** An ETag as GitHub sends it: printable ASCII, short (anything else would be a malformed request header). */
const ETAG = /^[\x20-\x7e]{1,200}$/;

/**
 * The kept state for `source`, or undefined (none, another source's, or not what this loader writes).
 *
 * @example
 * const kept = readKept(context.meta, sourceOf(options)); // { commit: 'a1b2…', etag: 'W/"…"' }
 */
export function readKept(meta: LoaderMetaStore, source: string): Kept | undefined {
  const text = meta.get(META_KEY);
  if (typeof text !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.source !== source || !isSha(v.commit)) return undefined;
  return typeof v.etag === 'string' && ETAG.test(v.etag) ? { commit: v.commit, etag: v.etag } : { commit: v.commit };
}

/**
 * Keep `kept` for `source`.
 *
 * @example
 * writeKept(context.meta, sourceOf(options), { commit: tip, etag });
 */
export function writeKept(meta: LoaderMetaStore, source: string, kept: Kept): void {
  meta.set(META_KEY, JSON.stringify({ source, ...kept }));
}
