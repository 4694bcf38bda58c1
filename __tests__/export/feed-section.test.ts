/**
 * `sectionFeed` (issue 41, "An Atom feed") against the GitHub API emulator, every feed read back by two readers
 * docdb did not write (feedparser: `bozo` 0; xmllint: well-formed): the entries, titles, links and dates; hostile
 * names, messages and authors; the request budget (an unchanged section: 1 request, the file untouched; 2 new
 * commits: only they are read); the limit; viewer links; refusals that leave a file alone; a damaged file rebuilt.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { ExportTargetError } from '../../src/export/errors.js';
import { MAX_FEED_BYTES, sectionFeed } from '../../src/export/feed/section-feed.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { tempDir } from '../git/helpers.js';
import { emulator, freshRepo, OWNER } from '../remote-api/helpers.js';
import { blob, commitDocs, parseFeed, repoFiles, runFeed, xmllint } from './feed-fixture.js';

let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;
/** Run once when the next ref read is answered: a write that lands "during" a run, without any timing. */
let onRefRead: (() => void) | undefined;
beforeAll(async () => {
  em = await emulator({
    onResponse: (r) => {
      if (!r.path.includes('/git/ref/')) return;
      const act = onRefRead;
      onRefRead = undefined;
      act?.();
    },
  });
  tmp = tempDir('docdb-feed-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});
const file = () => join(tmp.dir, `feed-${++n}.xml`);
const VIEWER = 'https://octo.github.io/viewer/';

/** A section of three commits on the repository's first commit: 5 added; 2 modified + 1 added; 1 removed + 1 other type. */
function section(): { repo: string; shas: string[] } {
  const repo = freshRepo(em);
  const shas = [
    commitDocs(em, repo, repoFiles(5), 'seed'),
    commitDocs(em, repo, { ...repoFiles(2, 10), 'github/repo/o/r9.json': blob('github', 'repo', 'o/r9', 9) }, 'more'),
    commitDocs(
      em,
      repo,
      { 'github/repo/o/r0.json': null, 'other/note/a.json': blob('other', 'note', 'a', 'x') },
      'third',
    ),
  ];
  return { repo, shas };
}

/** Both readers agree the file is a well-formed, valid feed; feedparser's reading of it. */
function readBack(out: string) {
  expect(xmllint(out)).toBe('');
  const parsed = parseFeed(out);
  expect(parsed.bozo_exception).toBeNull();
  expect(parsed.bozo).toBe(0);
  return parsed;
}

describe('sectionFeed: the Atom document', () => {
  it('one entry per commit, newest first: counts as titles, committer dates, authors, stable ids, viewer diffs', async () => {
    const { repo, shas } = section();
    const out = file();
    const { result } = await runFeed(em, repo, { file: out, viewerUrl: VIEWER });
    expect(result).toMatchObject({ mode: 'created', version: shas[2], entries: 4, read: 4 });
    const feed = readBack(out);
    expect(feed.feed.title).toBe(`docdb: ${OWNER}/${repo} refs/docdb/documents`);
    expect(feed.feed.id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(feed.feed.updated).toBe(feed.entries[0]?.updated);
    expect(feed.entries.map((e) => e.title)).toEqual([
      '−1 github/repo, +1 other/note',
      '+1 ~2 github/repo',
      '+5 github/repo',
      'no document changed', // the repository's first commit, under the section's
    ]);
    expect(feed.entries.map((e) => e.updated)).toEqual([
      '2024-01-01T00:03:00Z',
      '2024-01-01T00:02:00Z',
      '2024-01-01T00:01:00Z',
      '2024-01-01T00:00:00Z',
    ]);
    expect(feed.entries[0]?.author).toBe('Octo Cat (octocat@users.noreply.github.com)');
    const [newest] = feed.entries;
    const link = new URL(newest?.links.find((l) => l.rel === 'alternate')?.href as string);
    expect(link.origin + link.pathname).toBe(VIEWER);
    expect(Object.fromEntries(link.searchParams)).toEqual({
      repo: `${OWNER}/${repo}`,
      ref: 'refs/docdb/documents',
      view: 'diff',
      from: shas[1],
      to: shas[2],
    });
    expect(newest?.content).toContain('<li>removed <code>github/repo/o/r0</code></li>');
    expect(newest?.content).toContain('<li>added <code>other/note/a</code></li>');
    // Ids are the same on every run: a reader never sees an entry twice.
    const again = file();
    await runFeed(em, repo, { file: again });
    expect(parseFeed(again).entries.map((e) => e.id)).toEqual(feed.entries.map((e) => e.id));
    expect(new Set(feed.entries.map((e) => e.id)).size).toBe(4);
  });

  it('a commit of many changes: the first 20 listed, "and N more"; more than three types: "and N more types"', async () => {
    const repo = freshRepo(em);
    const files: Record<string, string> = repoFiles(25);
    for (const t of ['a', 'b', 'c', 'd']) files[`ns/${t}/x.json`] = blob('ns', t, 'x', 1);
    commitDocs(em, repo, files, 'big');
    const out = file();
    await runFeed(em, repo, { file: out, limit: 1 });
    const [entry] = readBack(out).entries;
    expect(entry?.title).toBe('+25 github/repo, +1 ns/a, +1 ns/b and 2 more types');
    expect(entry?.content.match(/<li>added <code>/g)?.length).toBe(20);
    expect(entry?.content).toContain('<p>and 9 more</p>');
  });

  it('--limit: only the newest N commits, from one listing', async () => {
    const { repo, shas } = section();
    const out = file();
    const { result, meter } = await runFeed(em, repo, { file: out, limit: 2 });
    expect(result).toMatchObject({ entries: 2, read: 2 });
    const feed = readBack(out);
    expect(feed.entries.map((e) => e.title)).toEqual(['−1 github/repo, +1 other/note', '+1 ~2 github/repo']);
    expect(meter.log.filter((l) => l.path.endsWith('/commits')).length).toBe(1);
    expect(readFileSync(out, 'utf8')).toContain(`<docdb:commit>${shas[2]}</docdb:commit>`);
  });

  it('no viewer address: no entry links; a viewer that is not http(s) is refused naming viewerUrl', async () => {
    const { repo } = section();
    const out = file();
    await runFeed(em, repo, { file: out });
    expect(readBack(out).entries.every((e) => e.links.length === 0)).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'ftp://x/', 'not a url']) {
      const err = await runFeed(em, repo, { file: file(), viewerUrl: bad }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidConfig);
      expect((err as InvalidConfig).data.field).toBe('viewerUrl');
      expect((err as Error).message).toContain('http(s)');
    }
  });
});

describe('sectionFeed: any store', () => {
  it('a MemoryRefStore section (no GitHub): the same entries, no viewer links without a repository', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.put({ namespace: 'n', type: 't', id: 'a', data: 1 });
    await docs.put({ namespace: 'n', type: 't', id: 'a', data: 2 });
    await docs.delete({ namespace: 'n', doc_type: 't', id: 'a' });
    const out = file();
    const r = await sectionFeed(docs, { file: out, section: 'memory', viewerUrl: VIEWER });
    expect(r).toMatchObject({ mode: 'created', entries: 3, read: 3 });
    const feed = readBack(out);
    expect(feed.entries.map((e) => e.title)).toEqual(['−1 n/t', '~1 n/t', '+1 n/t']);
    expect(feed.entries.every((e) => e.links.length === 0)).toBe(true);
    expect((await sectionFeed(docs, { file: out, section: 'memory' })).mode).toBe('unchanged');
  });
});

describe('sectionFeed: untrusted names, messages and authors', () => {
  it('keys with <script>, ]]> and quotes, a message and author with control characters: escaped, both readers agree', async () => {
    const repo = freshRepo(em);
    const id = 'o/<script>alert(1)</script>]]>&"\'';
    commitDocs(
      em,
      repo,
      { [`github/repo/${id}.json`]: blob('github', 'repo', id, 1) },
      'add\u0001 <b>bold</b>\u001b[31m & ]]>',
      false,
    );
    const shaHostileAuthor = em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: 'refs/docdb/documents',
      files: { 'github/repo/o/z.json': blob('github', 'repo', 'o/z', 2) },
      message: 'by a stranger',
      author: { name: 'Mallory <img src=x onerror=alert(1)>\u0000\u0007', email: 'not an email' },
    });
    const out = file();
    const { result } = await runFeed(em, repo, { file: out, viewerUrl: VIEWER });
    expect(result.version).toBe(shaHostileAuthor);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toMatch(/<script|<img|<b>|]]>/);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const feed = readBack(out);
    const [byStranger, hostile] = feed.entries;
    // feedparser hands readers the HTML; the names are text in it, never markup.
    expect(hostile?.content).toContain(
      '<code>github/repo/o/&lt;script&gt;alert(1)&lt;/script&gt;]]&gt;&amp;&quot;&apos;</code>',
    );
    expect(hostile?.content).not.toContain('<script');
    expect(hostile?.content).toContain('<p>add\ufffd &lt;b&gt;bold&lt;/b&gt;\ufffd[31m &amp; ]]&gt;</p>');
    expect(byStranger?.author).toBe('Mallory <img src=x onerror=alert(1)>\ufffd\ufffd');
    // An email that is not an address is left out (Atom's email is an addr-spec).
    expect(text).not.toContain('<email>not an email</email>');
  });
});

describe('sectionFeed: costs and the file it keeps', () => {
  it('unchanged section: 1 request (the ref read), the file not rewritten', async () => {
    const { repo } = section();
    const out = file();
    await runFeed(em, repo, { file: out, viewerUrl: VIEWER });
    const before = readFileSync(out);
    const { ino, mtimeMs } = statSync(out);
    const { result, meter } = await runFeed(em, repo, { file: out, viewerUrl: VIEWER });
    expect(result).toMatchObject({ mode: 'unchanged', read: 0, entries: 4 });
    expect(meter.requests).toBe(1);
    expect(meter.log.map((l) => l.path.replace(/^\/repos\/[^/]+\/[^/]+/, ''))).toEqual(['/git/ref/docdb/documents']);
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(statSync(out)).toMatchObject({ ino, mtimeMs });
  });

  it('2 new commits: only they are read (the ref, one listing, then per commit a compare and its GraphQL query); the rest comes from the file', async () => {
    const { repo } = section();
    const out = file();
    await runFeed(em, repo, { file: out });
    // Mark a kept entry in the file: if it survives, the entry came from the file, not from the section.
    const marked = readFileSync(out, 'utf8').replace(
      '&quot;subject&quot;:&quot;seed&quot;',
      '&quot;subject&quot;:&quot;seed (from the file)&quot;',
    );
    writeFileSync(out, marked);
    const a = commitDocs(em, repo, repoFiles(2, 20), 'four');
    const b = commitDocs(em, repo, { 'github/repo/o/r1.json': null }, 'five');
    const { result, meter } = await runFeed(em, repo, { file: out });
    expect(result).toMatchObject({ mode: 'updated', version: b, entries: 6, read: 2 });
    const calls = meter.log.map((l) => l.path.replace(/^\/repos\/[^/]+\/[^/]+/, ''));
    // Newest first; each commit: a compare, and the GraphQL query changes() makes for the old blob SHAs of what it
    // modified or removed (the feed does not need them; a commit that only adds costs the compare alone).
    expect(calls).toEqual([
      '/git/ref/docdb/documents',
      '/commits',
      `/compare/${a}...${b}`,
      '/graphql',
      expect.stringMatching(new RegExp(`^/compare/[0-9a-f]{40}\\.\\.\\.${a}$`)),
      '/graphql',
    ]);
    expect(meter.requests).toBe(6);
    const feed = readBack(out);
    expect(feed.entries.map((e) => e.title)).toEqual([
      '−1 github/repo',
      '+1 ~1 github/repo', // o/r0 was removed by "third"
      '−1 github/repo, +1 other/note',
      '+1 ~2 github/repo',
      '+5 github/repo',
      'no document changed',
    ]);
    expect(feed.entries[4]?.content).toContain('<p>seed (from the file)</p>');
  });

  it('more new commits than the limit: the newest N, all read, nothing kept from the file', async () => {
    const { repo } = section();
    const out = file();
    await runFeed(em, repo, { file: out, limit: 3 });
    for (let i = 1; i <= 4; i++) commitDocs(em, repo, repoFiles(i, 40 + i), `new ${i}`);
    const { result } = await runFeed(em, repo, { file: out, limit: 3 });
    expect(result).toMatchObject({ mode: 'updated', entries: 3, read: 3 });
    expect(readBack(out).entries.map((e) => e.title)).toEqual(['~4 github/repo', '~3 github/repo', '~2 github/repo']);
  });

  it('one new commit with a limit: the oldest entry leaves the feed, the others are kept', async () => {
    const { repo } = section();
    const out = file();
    await runFeed(em, repo, { file: out, limit: 3 });
    const added = commitDocs(em, repo, repoFiles(1, 40), 'four');
    const { result } = await runFeed(em, repo, { file: out, limit: 3 });
    expect(result).toMatchObject({ entries: 3, read: 1, version: added });
    expect(readBack(out).entries.map((e) => e.title)).toEqual([
      '+1 github/repo',
      '−1 github/repo, +1 other/note',
      '+1 ~2 github/repo',
    ]);
  });

  it('a commit that lands after the tip was read: in the feed, and recorded as the commit it holds', async () => {
    const { repo } = section();
    const out = file();
    let late = '';
    onRefRead = () => {
      late = commitDocs(em, repo, repoFiles(1, 50, 7), 'late');
    };
    const { result } = await runFeed(em, repo, { file: out });
    expect(late).toMatch(/^[0-9a-f]{40}$/);
    expect(result).toMatchObject({ version: late, entries: 5 });
    expect(readFileSync(out, 'utf8')).toContain(`<docdb:commit>${late}</docdb:commit>`);
    expect(readBack(out).entries[0]?.title).toBe('+1 github/repo');
    const again = await runFeed(em, repo, { file: out });
    expect(again.result).toMatchObject({ mode: 'unchanged' });
    expect(again.meter.requests).toBe(1);
  });

  it('a new viewer address on an unchanged section: re-rendered from the file, still 1 request', async () => {
    const { repo } = section();
    const out = file();
    await runFeed(em, repo, { file: out });
    const { result, meter } = await runFeed(em, repo, { file: out, viewerUrl: VIEWER });
    expect(result).toMatchObject({ mode: 'updated', read: 0 });
    expect(meter.requests).toBe(1);
    expect(readBack(out).entries.every((e) => e.links[0]?.href.startsWith(VIEWER))).toBe(true);
  });
});

describe('sectionFeed: files that are not its own', () => {
  it('an existing file that is not a docdb feed is refused and left as it was', async () => {
    const { repo } = section();
    for (const content of ['hello\n', '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"></feed>\n']) {
      const out = file();
      writeFileSync(out, content);
      const err = await runFeed(em, repo, { file: out }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExportTargetError);
      expect((err as Error).message).toMatch(/is not a docdb feed/);
      expect(readFileSync(out, 'utf8')).toBe(content);
    }
  });

  it("another section's feed is refused and left as it was", async () => {
    const { repo } = section();
    const other = section().repo;
    const out = file();
    await runFeed(em, other, { file: out });
    const before = readFileSync(out, 'utf8');
    const err = await runFeed(em, repo, { file: out }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExportTargetError);
    expect((err as Error).message).toContain(`holds the feed of ${OWNER}/${other}`);
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('a file over MAX_FEED_BYTES: only its head is read — a docdb feed is rebuilt, anything else refused', async () => {
    const { repo, shas } = section();
    const out = file();
    await runFeed(em, repo, { file: out });
    const good = readFileSync(out, 'utf8');
    const padding = `<!--${' '.repeat(MAX_FEED_BYTES)}-->\n`;
    writeFileSync(out, good + padding);
    const { result } = await runFeed(em, repo, { file: out });
    expect(result).toMatchObject({ mode: 'created', version: shas[2], read: 4 });
    expect(readFileSync(out, 'utf8')).toBe(good);
    const other = file();
    writeFileSync(other, `<html>${padding}</html>\n`);
    const err = await runFeed(em, repo, { file: other }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExportTargetError);
    expect(statSync(other).size).toBe(padding.length + 14);
  });

  it.each([
    ['an entry whose data is not JSON', (t: string) => t.replace(/<docdb:entry>\{/, '<docdb:entry>{{'), 4],
    ['an entry with a wrong shape', (t: string) => t.replace(/&quot;more&quot;:0/, '&quot;more&quot;:-1'), 4],
    ['an entry without its data', (t: string) => t.replace(/<docdb:entry>[^<]*<\/docdb:entry>/, ''), 4],
    ['a file cut in half', (t: string) => t.slice(0, t.length / 2), 4],
    [
      'a huge subject',
      (t: string) => t.replace('&quot;subject&quot;:&quot;', `&quot;subject&quot;:&quot;${'x'.repeat(5000)}`),
      4,
    ],
    // The entries read; only the recorded tip did not: the listing decides, every entry is reused.
    ['a commit that is not a SHA', (t: string) => t.replace(/<docdb:commit>[0-9a-f]+/, '<docdb:commit>HEAD'), 0],
  ])('a damaged docdb feed (%s) is rebuilt from the section, never a crash', async (_, damage, read) => {
    const { repo, shas } = section();
    const out = file();
    await runFeed(em, repo, { file: out });
    const good = readFileSync(out, 'utf8');
    writeFileSync(out, damage(good));
    const { result } = await runFeed(em, repo, { file: out });
    expect(result).toMatchObject({ mode: read === 0 ? 'updated' : 'created', version: shas[2], read });
    expect(readFileSync(out, 'utf8')).toBe(good);
    readBack(out);
  });
});
