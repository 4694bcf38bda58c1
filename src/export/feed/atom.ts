/**
 * The Atom document (RFC 4287) of a section's entries: feed id, title, updated, author, links; one `entry` per
 * commit with a stable id, its title of counts, the committer date, the commit author, an HTML content listing the
 * changes and, when a viewer address is given, a link to the viewer's diff of that commit. docdb's own elements
 * (namespace {@link DOCDB_NS}) record what the file holds — the section, the commit of its newest entry, the limit,
 * each entry's data — so the next run reads only newer commits (read-feed.ts). Readers ignore them.
 */
import { createHash } from 'node:crypto';
import { viewerUrl } from '../../core/viewer-url.js';
import { CHANGE_KINDS, entryTitle, type FeedEntry } from './entry.js';
import { el, writeXml, type XmlElement, xmlEscape } from './xml.js';

export const ATOM_NS = 'http://www.w3.org/2005/Atom';
/** docdb's extension elements (`docdb:section`, `docdb:commit`, `docdb:limit`, `docdb:entry`). */
export const DOCDB_NS = 'urn:docdb:feed:1';

/** What the whole feed is about and where it links. */
export interface FeedHead {
  /** The section as the user names it (`octo/data refs/docdb/documents`): the feed's title and ids. */
  section: string;
  /** The section's full ref. */
  ref: string;
  /** `owner/name` on GitHub, when known: needed for viewer links. */
  repository?: string;
  /** An http(s) viewer to link each entry's diff to. */
  viewerUrl?: string;
  /** Where the feed is published (`link rel="self"`). */
  feedUrl?: string;
  /** How many commits the feed holds at most. */
  limit: number;
  /** The section commit of the newest entry. */
  commit: string;
}

/** A name-based UUID (RFC 4122 version 5, in the URL namespace) as an Atom id: stable for the same name. */
function uuidUrn(name: string): string {
  const h = createHash('sha1').update(Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex')).update(name).digest();
  h[6] = ((h[6] as number) & 0x0f) | 0x50;
  h[8] = ((h[8] as number) & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The Atom id of the feed of `section` (`commit` undefined) or of its entry for `commit`: a name-based UUID of
 * the section and the commit SHA, the same on every run.
 *
 * @example
 * atomId('octo/data refs/docdb/documents', sha); // 'urn:uuid:…'
 */
export function atomId(section: string, commit?: string): string {
  return uuidUrn(`docdb feed\n${section}${commit === undefined ? '' : `\n${commit}`}`);
}

/** The viewer address of one entry (its commit's diff; a root commit: the section at it). */
export function entryLink(head: FeedHead, e: FeedEntry): string | undefined {
  if (head.viewerUrl === undefined || head.repository === undefined) return undefined;
  const at =
    e.parent === null
      ? { view: 'overview' as const, at: e.commit }
      : { view: 'diff' as const, from: e.parent, to: e.commit };
  return viewerUrl(head.viewerUrl, { repo: head.repository, ref: head.ref, ...at });
}

/** An address Atom accepts as `email` (an addr-spec, roughly): else it is left out. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

/** The entry's content: the counts per type, then its first changes by document, "and N more". */
export function entryHtml(e: FeedEntry): string {
  const h = xmlEscape;
  const parts: string[] = [];
  if (e.subject !== '') parts.push(`<p>${h(e.subject)}</p>`);
  const typeRows = e.types.map((t) => `<li>${h(`${t.namespace}/${t.type}`)}: ${h(words(t))}</li>`);
  if (e.otherTypes.types > 0) typeRows.push(`<li>${e.otherTypes.types} more types: ${h(words(e.otherTypes))}</li>`);
  parts.push(typeRows.length > 0 ? `<ul>${typeRows.join('')}</ul>` : '<p>No document changed.</p>');
  if (e.changes.length > 0) {
    parts.push(`<ul>${e.changes.map((c) => `<li>${c.kind} <code>${h(c.document)}</code></li>`).join('')}</ul>`);
  }
  if (e.more > 0) parts.push(`<p>and ${e.more} more</p>`);
  return parts.join('\n');
}

/** `3 added, 12 modified, 1 removed` (zero counts left out). */
function words(t: { added: number; modified: number; removed: number }): string {
  return CHANGE_KINDS.filter((k) => t[k] > 0)
    .map((k) => `${t[k]} ${k}`)
    .join(', ');
}

function entryElement(head: FeedHead, e: FeedEntry): XmlElement {
  const link = entryLink(head, e);
  const author = [el('name', {}, [e.author.name === '' ? 'unknown' : e.author.name])];
  if (EMAIL.test(e.author.email)) author.push(el('email', {}, [e.author.email]));
  return el('entry', {}, [
    el('id', {}, [atomId(head.section, e.commit)]),
    el('title', {}, [entryTitle(e)]),
    el('updated', {}, [e.updated]),
    el('author', {}, author),
    ...(link ? [el('link', { rel: 'alternate', type: 'text/html', href: link })] : []),
    el('content', { type: 'html' }, [entryHtml(e)]),
    el('docdb:entry', {}, [JSON.stringify(e)]),
  ]);
}

/**
 * The feed document: `entries` newest first (the first one's commit is `head.commit`).
 *
 * @example
 * const xml = renderFeed({ section: 'octo/data refs/docdb/documents', ref, repository: 'octo/data', limit: 50, commit: tip }, entries);
 */
export function renderFeed(head: FeedHead, entries: readonly FeedEntry[]): string {
  const overview =
    head.viewerUrl !== undefined && head.repository !== undefined
      ? viewerUrl(head.viewerUrl, { repo: head.repository, ref: head.ref })
      : undefined;
  const feed = el('feed', { xmlns: ATOM_NS, 'xmlns:docdb': DOCDB_NS }, [
    el('id', {}, [atomId(head.section)]),
    el('title', {}, [`docdb: ${head.section}`]),
    el('updated', {}, [entries[0]?.updated ?? '1970-01-01T00:00:00Z']),
    el('author', {}, [el('name', {}, [head.repository ?? 'docdb'])]),
    el('generator', {}, ['docdb']),
    ...(head.feedUrl ? [el('link', { rel: 'self', type: 'application/atom+xml', href: head.feedUrl })] : []),
    ...(overview ? [el('link', { rel: 'alternate', type: 'text/html', href: overview })] : []),
    el('docdb:section', {}, [head.section]),
    el('docdb:ref', {}, [head.ref]),
    el('docdb:commit', {}, [head.commit]),
    el('docdb:limit', {}, [String(head.limit)]),
    ...entries.map((e) => entryElement(head, e)),
  ]);
  return `<?xml version="1.0" encoding="utf-8"?>\n${writeXml(feed)}`;
}
