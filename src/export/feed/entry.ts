/**
 * One feed entry per section commit, as data: the commit (sha, first parent, committer date, author, the first
 * line of its message), the documents it changed counted per type, and its first changes by key. Built from the
 * commit's history entry and `changes()` between its parent and it; rendered by atom.ts (title, HTML content) and
 * kept in the feed file (`docdb:entry`) so a later run reuses it without reading the commit again. Every string
 * comes from the section: it is cut to a length and cleared of characters XML forbids here, once.
 */
import type { HistoryEntry } from '../../core/refstore.js';
import type { ChangedDocument, DocumentChangesResult } from '../../document/document-types.js';
import { xmlChars } from './xml.js';

/** Changes listed by key in an entry's content ("and N more" after them). */
export const LISTED_CHANGES = 20;
/** Types counted one by one in an entry (more are summed into {@link FeedEntry.otherTypes}). */
export const COUNTED_TYPES = 50;
/** Longest text kept from the section (a message line, a name, a key). */
export const MAX_TEXT = 300;

export type ChangeKind = 'added' | 'modified' | 'removed';
export const CHANGE_KINDS: readonly ChangeKind[] = ['added', 'modified', 'removed'];

/** The documents of one type a commit added, modified and removed. */
export interface TypeCount {
  namespace: string;
  type: string;
  added: number;
  modified: number;
  removed: number;
}

/** One listed change: the kind and the document (`namespace/type/id`). */
export interface ListedChange {
  kind: ChangeKind;
  document: string;
}

/** What an entry says about one commit. */
export interface FeedEntry {
  commit: string;
  /** The first parent compared with (null: a root commit, every document of it is added). */
  parent: string | null;
  /** Committer date, RFC 3339. */
  updated: string;
  author: { name: string; email: string };
  /** The first line of the commit message. */
  subject: string;
  /** Per type, most-changed first (at most {@link COUNTED_TYPES}). */
  types: TypeCount[];
  /** The counts of the types past {@link COUNTED_TYPES}, summed (0 types: none). */
  otherTypes: { types: number; added: number; modified: number; removed: number };
  /** The first {@link LISTED_CHANGES} changes: added, then modified, then removed, each in key order. */
  changes: ListedChange[];
  /** Changes not listed. */
  more: number;
}

/** `text` cut to {@link MAX_TEXT} characters (an ellipsis marks the cut) and cleared of XML-forbidden characters. */
export function clip(text: string, max = MAX_TEXT): string {
  const chars = [...xmlChars(text)];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** An ISO date as RFC 3339 UTC (an unreadable date becomes the epoch: the entry stays valid). */
export function rfc3339(date: string): string {
  const t = Date.parse(date);
  return new Date(Number.isNaN(t) ? 0 : t).toISOString().replace('.000Z', 'Z');
}

/**
 * The entry of `commit`, whose documents changed as `changes` says (from its first parent; for a root commit,
 * every document it holds as added).
 *
 * @example
 * const entry = feedEntry(commit, await docs.changes({ from: commit.parents[0], to: commit.version }));
 */
export function feedEntry(
  commit: HistoryEntry,
  changes: Pick<DocumentChangesResult, 'added' | 'modified' | 'removed'>,
): FeedEntry {
  const counted = countTypes(changes);
  const rest = counted.slice(COUNTED_TYPES);
  const sum = (k: ChangeKind) => rest.reduce((n, t) => n + t[k], 0);
  const all = CHANGE_KINDS.flatMap((kind) => changes[kind].map((d) => ({ kind, document: documentName(d) })));
  return {
    commit: commit.version,
    parent: commit.parents[0] ?? null,
    updated: rfc3339(commit.committer.date),
    author: { name: clip(commit.author.name), email: clip(commit.author.email) },
    subject: clip(commit.message.split('\n')[0] ?? ''),
    types: counted.slice(0, COUNTED_TYPES),
    otherTypes: { types: rest.length, added: sum('added'), modified: sum('modified'), removed: sum('removed') },
    changes: all.slice(0, LISTED_CHANGES).map((c) => ({ kind: c.kind, document: clip(c.document) })),
    more: Math.max(0, all.length - LISTED_CHANGES),
  };
}

const documentName = (d: ChangedDocument) => `${d.namespace}/${d.doc_type}/${d.id}`;
const total = (t: Omit<TypeCount, 'namespace' | 'type'>) => t.added + t.modified + t.removed;

/** The counts per type, most-changed first, then by name. */
function countTypes(changes: Pick<DocumentChangesResult, ChangeKind>): TypeCount[] {
  const byType = new Map<string, TypeCount>();
  for (const kind of CHANGE_KINDS) {
    for (const d of changes[kind]) {
      const name = `${d.namespace}/${d.doc_type}`;
      let t = byType.get(name);
      if (!t) {
        t = { namespace: clip(d.namespace), type: clip(d.doc_type), added: 0, modified: 0, removed: 0 };
        byType.set(name, t);
      }
      t[kind]++;
    }
  }
  return [...byType.entries()]
    .sort(([an, a], [bn, b]) => total(b) - total(a) || (an < bn ? -1 : an > bn ? 1 : 0))
    .map(([, t]) => t);
}

/** Types named in a title; the rest are "N more types". */
const TITLE_TYPES = 3;
/** A type name in a title is cut to this many characters. */
const TITLE_NAME = 40;

/**
 * The entry's title: the counts per type, most-changed first (`+3 ~12 −1 github/repo, +1 other/note`), zero
 * counts left out, at most three types named and the rest counted.
 *
 * @example
 * entryTitle(entry); // '+3 ~12 −1 github/repo, ~2 other/note and 4 more types'
 */
export function entryTitle(e: FeedEntry): string {
  const others = e.types.length - TITLE_TYPES + e.otherTypes.types;
  const named = e.types
    .slice(0, TITLE_TYPES)
    .map((t) => `${counts(t)} ${clip(`${t.namespace}/${t.type}`, TITLE_NAME)}`);
  if (named.length === 0) return 'no document changed';
  const more = others > 0 ? ` and ${others} more type${others === 1 ? '' : 's'}` : '';
  return `${named.join(', ')}${more}`;
}

/** `+3 ~12 −1` (zero counts left out). */
export function counts(t: Omit<TypeCount, 'namespace' | 'type'>): string {
  const parts: string[] = [];
  if (t.added > 0) parts.push(`+${t.added}`);
  if (t.modified > 0) parts.push(`~${t.modified}`);
  if (t.removed > 0) parts.push(`\u2212${t.removed}`);
  return parts.join(' ');
}
