/**
 * Reading back a feed file docdb wrote, to know which section commit it holds and to reuse its entries. The file
 * is untrusted (anyone with the workspace or the Pages branch may have edited it): only docdb's own elements are
 * read, each checked for shape and size; anything unexpected makes the file "damaged" and the caller rebuilds
 * it from the section. A file without docdb's feed marker is not ours and is never touched.
 */
import { ATOM_NS, DOCDB_NS } from './atom.js';
import { CHANGE_KINDS, COUNTED_TYPES, type FeedEntry, LISTED_CHANGES, MAX_TEXT } from './entry.js';
import { xmlUnescape } from './xml.js';

/** A feed docdb wrote: what it says it holds (any part undefined when it did not read). */
export interface OwnFeed {
  section?: string;
  ref?: string;
  commit?: string;
  limit?: number;
  /** Its entries, newest first; undefined when any of them did not read (the feed is rebuilt). */
  entries?: FeedEntry[];
}

/** The opening of every feed docdb writes (atom.ts renderFeed). */
const MARKER = `<feed xmlns="${ATOM_NS}" xmlns:docdb="${DOCDB_NS}">`;
const SHA = /^[0-9a-f]{40}$/;
const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * What the feed text `text` holds, or undefined when it is not a feed docdb wrote.
 *
 * @example
 * const own = readOwnFeed(await readFile('feed.xml', 'utf8'));
 * if (own?.commit === tip) console.log('up to date');
 */
export function readOwnFeed(text: string): OwnFeed | undefined {
  if (!text.startsWith('<?xml ') || !text.slice(0, 200).includes(MARKER)) return undefined;
  const one = (name: string) => {
    const m = new RegExp(`<docdb:${name}>([^<]*)</docdb:${name}>`).exec(text);
    return m ? xmlUnescape(m[1] as string) : undefined;
  };
  const out: OwnFeed = {};
  const section = one('section');
  const ref = one('ref');
  const commit = one('commit');
  const limit = Number(one('limit'));
  if (section !== undefined) out.section = section;
  if (ref !== undefined) out.ref = ref;
  if (commit !== undefined && SHA.test(commit)) out.commit = commit;
  if (Number.isSafeInteger(limit) && limit > 0) out.limit = limit;
  const entries = readEntries(text);
  if (entries) out.entries = entries;
  return out;
}

/** Every entry's data, or undefined when one is missing or does not read. */
function readEntries(text: string): FeedEntry[] | undefined {
  const raw = [...text.matchAll(/<docdb:entry>([^<]*)<\/docdb:entry>/g)].map((m) => m[1] as string);
  if (raw.length !== text.split('<entry>').length - 1) return undefined;
  const entries: FeedEntry[] = [];
  for (const r of raw) {
    let value: unknown;
    try {
      value = JSON.parse(xmlUnescape(r));
    } catch {
      return undefined;
    }
    if (!isFeedEntry(value)) return undefined;
    entries.push(value);
  }
  return entries;
}

const isText = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && [...v].length <= max;
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasCounts = (v: Record<string, unknown>) => CHANGE_KINDS.every((k) => isCount(v[k]));

/** Whether `v` has the exact shape feedEntry() builds, within its limits. */
function isFeedEntry(v: unknown): v is FeedEntry {
  if (!isObject(v)) return false;
  const { commit, parent, updated, author, subject, types, otherTypes, changes, more } = v;
  return (
    typeof commit === 'string' &&
    SHA.test(commit) &&
    (parent === null || (typeof parent === 'string' && SHA.test(parent))) &&
    typeof updated === 'string' &&
    DATE.test(updated) &&
    isObject(author) &&
    isText(author.name) &&
    isText(author.email) &&
    isText(subject) &&
    Array.isArray(types) &&
    types.length <= COUNTED_TYPES &&
    types.every((t) => isObject(t) && isText(t.namespace) && isText(t.type) && hasCounts(t)) &&
    isObject(otherTypes) &&
    isCount(otherTypes.types) &&
    hasCounts(otherTypes) &&
    Array.isArray(changes) &&
    changes.length <= LISTED_CHANGES &&
    changes.every((c) => isObject(c) && (CHANGE_KINDS as readonly unknown[]).includes(c.kind) && isText(c.document)) &&
    isCount(more)
  );
}
