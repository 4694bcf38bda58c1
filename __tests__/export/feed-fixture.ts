/**
 * What the feed tests share: sections seeded in the emulator (sqlite-fixture.ts), a metered store over it, and two
 * readers docdb did not write — Debian's python3-feedparser (the parser feed readers build on; `bozo` set when the
 * feed is not well-formed or not valid) and libxml2's `xmllint --noout` (well-formedness).
 */
import { execFileSync } from 'node:child_process';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { type SectionFeedOptions, sectionFeed } from '../../src/export/feed/section-feed.js';
import { OWNER } from '../remote-api/helpers.js';
import { blob, commitDocs, meteredDocs } from './sqlite-fixture.js';

export const PYTHON = '/usr/bin/python3';
export const XMLLINT = '/usr/bin/xmllint';

/** What feedparser read from a feed file. */
export interface Parsed {
  bozo: number;
  bozo_exception: string | null;
  feed: { id: string; title: string; updated: string; author?: string; links: { rel: string; href: string }[] };
  entries: {
    id: string;
    title: string;
    updated: string;
    author?: string;
    links: { rel: string; href: string; type?: string }[];
    content: string;
  }[];
}

const PARSE = `
import json, sys, feedparser
d = feedparser.parse(sys.argv[1])
links = lambda o: [{"rel": l.get("rel"), "href": l.get("href"), "type": l.get("type")} for l in o.get("links", [])]
print(json.dumps({
  "bozo": int(bool(d.bozo)),
  "bozo_exception": str(d.get("bozo_exception")) if d.bozo else None,
  "feed": {"id": d.feed.get("id"), "title": d.feed.get("title"), "updated": d.feed.get("updated"),
           "author": d.feed.get("author"), "links": links(d.feed)},
  "entries": [{"id": e.get("id"), "title": e.get("title"), "updated": e.get("updated"), "author": e.get("author"),
               "links": links(e), "content": (e.get("content") or [{"value": ""}])[0]["value"]} for e in d.entries],
}))
`;

/**
 * The feed file as feedparser reads it.
 *
 * @example
 * expect(parseFeed(out).bozo).toBe(0);
 */
export function parseFeed(file: string): Parsed {
  return JSON.parse(execFileSync(PYTHON, ['-c', PARSE, file], { encoding: 'utf8' })) as Parsed;
}

/** `xmllint --noout FILE`: '' when well-formed, else its complaint (the test prints it). */
export function xmllint(file: string): string {
  try {
    execFileSync(XMLLINT, ['--noout', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return '';
  } catch (e) {
    return String((e as { stderr?: string }).stderr ?? e);
  }
}

/** `count` github/repo documents `o/r<i>` with `stars: i + bump`. */
export function repoFiles(count: number, bump = 0, from = 0): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = from; i < from + count; i++) {
    files[`github/repo/o/r${i}.json`] = blob('github', 'repo', `o/r${i}`, { stars: i + bump });
  }
  return files;
}

/** Run `sectionFeed` on a fresh metered store (cold caches); the request count is the meter's. */
export async function runFeed(em: EmulatorHandle, repo: string, o: Omit<SectionFeedOptions, 'section'>) {
  const { docs, meter } = meteredDocs(em, repo);
  const result = await sectionFeed(docs, {
    section: `${OWNER}/${repo} ${docs.ref}`,
    repository: `${OWNER}/${repo}`,
    ...o,
  });
  return { result, meter };
}

export { blob, commitDocs };
