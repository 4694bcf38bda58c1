/**
 * `sectionFeed`: an Atom feed of a section's newest commits, written to a file (docs/feed.md). Each entry is one
 * commit, its counts and first changes taken from `changes()` between its first parent and it (on the GitHub API
 * a compare: about one request a commit). The file records the commit it holds: when the section has not moved,
 * the run costs the ref read and writes nothing; when it has, only the new commits are read and the other entries
 * are taken from the file. The file is written beside the target and renamed over it; a file that is not a docdb
 * feed (or a feed of another section) is refused and left as it was.
 */
import { open, readFile, stat } from 'node:fs/promises';
import { InvalidConfig, NotFound } from '../../core/errors.js';
import type { HistoryEntry } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import { httpUrl } from '../../core/viewer-url.js';
import type { DocumentStore } from '../../document/document-store.js';
import type { DocumentChangesResult } from '../../document/document-types.js';
import { ExportTargetError } from '../errors.js';
import { realTarget } from '../real-path.js';
import { writeTextFile } from '../write-export.js';
import { type FeedHead, renderFeed } from './atom.js';
import { type FeedEntry, feedEntry } from './entry.js';
import { type OwnFeed, readOwnFeed } from './read-feed.js';

/** Commits a feed holds unless told otherwise. */
export const DEFAULT_FEED_LIMIT = 50;
/** The most commits a feed may hold (each new one costs about one request). */
export const MAX_FEED_LIMIT = 1000;
/** An existing file larger than this is not read whole: only its head, to know whether it is a docdb feed (then rebuilt). */
export const MAX_FEED_BYTES = 32 * 1024 * 1024;

export interface SectionFeedOptions {
  /** The file to write (created, or brought up to date when it holds this section's feed). */
  file: string;
  /** The section as users name it (`octo/data refs/docdb/documents`): the feed's title, and its ids. */
  section: string;
  /** `owner/name` on GitHub: needed for viewer links. */
  repository?: string;
  /** An http(s) address of the docdb viewer: each entry links to its commit's diff there. */
  viewerUrl?: string;
  /** Where the feed will be published (its `link rel="self"`), an http(s) address. */
  feedUrl?: string;
  /** How many of the newest commits the feed holds (1 to {@link MAX_FEED_LIMIT}; default {@link DEFAULT_FEED_LIMIT}). */
  limit?: number;
}

export interface SectionFeedResult {
  /** The real path written (or left as it was). */
  path: string;
  /** The section commit the feed holds (its tip). */
  version: VersionId;
  /** `created` (a new file, or rebuilt), `updated` (entries added or re-rendered), `unchanged` (not written). */
  mode: 'created' | 'updated' | 'unchanged';
  /** Entries in the feed. */
  entries: number;
  /** Commits whose changes were read for this run (the others came from the file). */
  read: number;
}

/**
 * Write (or bring up to date) the Atom feed of the section's newest commits in `options.file`.
 *
 * @example
 * import { DocumentStore, RemoteApiRefStore } from 'docdb';
 * import { sectionFeed } from 'docdb/node';
 * const docs = new DocumentStore(new RemoteApiRefStore({ owner: 'octo', repo: 'data', token }));
 * const r = await sectionFeed(docs, { file: 'site/feed.xml', section: 'octo/data refs/docdb/documents', repository: 'octo/data', viewerUrl: 'https://octo.github.io/viewer/' });
 * console.log(r.mode, r.entries); // 'created' 50
 */
export async function sectionFeed(docs: DocumentStore, options: SectionFeedOptions): Promise<SectionFeedResult> {
  const limit = checkOptions(options);
  const { target, existing, own } = await feedTarget(options.file, options.section, docs.ref);
  const tip = await docs.head();
  if (tip === null)
    throw new NotFound(`section ${docs.ref} does not exist (${options.section}): it has no commits to list`);
  const head: FeedHead = { ...headOf(options, docs.ref), limit, commit: tip };
  // The section has not moved: what the file holds is the feed (re-rendered: a new viewer address still applies).
  const held = own?.commit === tip && own.limit === limit ? own.entries : undefined;
  if (held) return put(target, existing, renderFeed(head, held), tip, held.length, 0);
  const { entries, read } = await newestEntries(docs, limit, own);
  // The listing's newest commit: a write that landed since the tip was read is in the feed, and recorded as held.
  const newest = entries[0]?.commit ?? tip;
  const text = renderFeed({ ...head, commit: newest }, entries);
  const r = await put(target, existing, text, newest, entries.length, read);
  return existing === undefined || own?.entries === undefined ? { ...r, mode: 'created' } : r;
}

/** The limit, after checking every option (an `InvalidConfig` naming it). */
function checkOptions(o: SectionFeedOptions): number {
  const limit = o.limit ?? DEFAULT_FEED_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_FEED_LIMIT) {
    throw new InvalidConfig('limit', `limit must be a whole number from 1 to ${MAX_FEED_LIMIT}, got ${limit}`, {
      allowed: `1-${MAX_FEED_LIMIT}`,
    });
  }
  for (const field of ['viewerUrl', 'feedUrl'] as const) {
    const v = o[field];
    if (v !== undefined && httpUrl(v) === undefined) {
      throw new InvalidConfig(field, `${field} must be an http(s) address, got ${JSON.stringify(v)}`, {
        allowed: 'an http(s) URL',
      });
    }
  }
  return limit;
}

function headOf(o: SectionFeedOptions, ref: string): Omit<FeedHead, 'limit' | 'commit'> {
  return {
    section: o.section,
    ref,
    ...(o.repository !== undefined ? { repository: o.repository } : {}),
    ...(o.viewerUrl !== undefined ? { viewerUrl: o.viewerUrl } : {}),
    ...(o.feedUrl !== undefined ? { feedUrl: o.feedUrl } : {}),
  };
}

/** Where a feed goes, and what is there already. */
export interface FeedTarget {
  /** The real path (symbolic links resolved). */
  target: string;
  /** The file's text (undefined: no file). */
  existing?: string;
  /** What the file holds, as a docdb feed (undefined: no file). */
  own?: OwnFeed;
}

/**
 * The real path of `file` and what it holds; `ExportTargetError` (nothing read from the section, the file left
 * as it is) when it is not a file, not a docdb feed, or the feed of a section other than `section` at `ref`.
 * `sectionFeed` calls it first; the Action calls it before its run too, so a wrong `feed` fails before a commit.
 *
 * @example
 * await feedTarget('site/feed.xml', 'octo/data refs/docdb/documents', 'refs/docdb/documents');
 */
export async function feedTarget(file: string, section: string, ref: string): Promise<FeedTarget> {
  const target = await realTarget(file);
  const found = await existingFeed(target);
  if (found === undefined) return { target };
  const existing = found.text;
  const own = readOwnFeed(existing);
  if (own === undefined) {
    throw new ExportTargetError(
      `${target} exists and is not a docdb feed: write the feed to another file, or remove this one`,
    );
  }
  if (own.section !== undefined && (own.section !== section || own.ref !== ref)) {
    throw new ExportTargetError(
      `${target} holds the feed of ${own.section}, not of ${section}: write the feed to another file, or remove this one`,
    );
  }
  // Too large to read whole (hostile names can make ours large too): ours by its head, rebuilt from the section.
  if (!found.whole) delete own.entries;
  return { target, existing, own };
}

/** What is read of a file over {@link MAX_FEED_BYTES}: enough to hold the feed's head (docdb's elements come first). */
const HEAD_BYTES = 64 * 1024;

/**
 * The text of the file at `target` (`whole: false`: only its first {@link HEAD_BYTES}, the file is larger than
 * {@link MAX_FEED_BYTES}), undefined when there is none; refused when it is not a file.
 */
async function existingFeed(target: string): Promise<{ text: string; whole: boolean } | undefined> {
  const st = await stat(target).catch(() => undefined);
  if (!st) return undefined;
  if (!st.isFile()) throw new ExportTargetError(`${target} exists and is not a file`);
  if (st.size <= MAX_FEED_BYTES) return { text: await readFile(target, 'utf8'), whole: true };
  const handle = await open(target, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return { text: head.subarray(0, bytesRead).toString('utf8'), whole: false };
  } finally {
    await handle.close();
  }
}

/** Write `text` unless the file already holds exactly it. */
async function put(
  target: string,
  existing: string | undefined,
  text: string,
  version: VersionId,
  entries: number,
  read: number,
): Promise<SectionFeedResult> {
  if (existing === text) return { path: target, version, mode: 'unchanged', entries, read };
  const path = await writeTextFile(
    target,
    (async function* () {
      yield text;
    })(),
  );
  return { path, version, mode: 'updated', entries, read };
}

/**
 * The entries of the newest `limit` commits: the file's entry of a commit when it has one (same commit, same
 * parent), else one built from the commit's changes. One listing (1 request per 100 commits on the API).
 */
async function newestEntries(
  docs: DocumentStore,
  limit: number,
  own: OwnFeed | undefined,
): Promise<{ entries: FeedEntry[]; read: number }> {
  if (!docs.store.commits) throw new Error('a feed needs a store that lists the section’s commits');
  const commits = (await docs.store.commits({ limit })).entries.slice(0, limit);
  const kept = new Map((own?.entries ?? []).map((e) => [e.commit, e]));
  const entries: FeedEntry[] = [];
  let read = 0;
  for (const c of commits) {
    const old = kept.get(c.version);
    if (old && old.parent === (c.parents[0] ?? null)) {
      entries.push(old);
      continue;
    }
    entries.push(feedEntry(c, await changesOf(docs, c)));
    read++;
  }
  return { entries, read };
}

/** What `c` changed: from its first parent, or (a root commit) every document it holds, added. */
async function changesOf(
  docs: DocumentStore,
  c: HistoryEntry,
): Promise<Pick<DocumentChangesResult, 'added' | 'modified' | 'removed'>> {
  const parent = c.parents[0];
  if (parent !== undefined) return docs.changes({ from: parent, to: c.version });
  const added = (await docs.list({ version: c.version })).documents.map((d) => ({
    namespace: d.namespace,
    doc_type: d.doc_type,
    id: d.id,
    key: d.key,
    blobSha: d.blobSha,
  }));
  return { added, modified: [], removed: [] };
}
