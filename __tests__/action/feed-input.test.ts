/**
 * The Action's `feed` input (issue 41, "An Atom feed"), in-process (runAction from src/) against the emulator:
 * after a `mode: project` run — one that committed and one that changed nothing — the workspace file holds the
 * section's feed (read back by feedparser and xmllint), linking to `viewer-url`; a second run leaves the file
 * untouched. A `feed` that leaves the workspace (`../`, a symbolic link), a file that is not a docdb feed, a mode
 * that does not write the section and bad companions are refused naming the input, before any request or commit.
 */
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import { InvalidConfig } from '../../src/core/errors.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { parseFeed, xmllint } from '../export/feed-fixture.js';
import { tempDir } from '../git/helpers.js';
import { workspace } from './run-dist.js';

const TOKEN = 'ghp_FeedInputToken0123456789abcdefabcd';
const REPO = 'octo/feed-input';
const VIEWER = 'https://octo.github.io/feed-input/';
let em: EmulatorHandle;
let outside: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 1_000_000, repos: { [REPO]: 'write' } });
  outside = tempDir('docdb-feed-outside-');
});
afterAll(async () => {
  await em?.stop();
  outside?.cleanup();
});

const SPEC =
  'projections:\n  rows:\n    source: { type: files, glob: rows.csv }\n    identity: { id: "{item.key}" }\n    prune: true\n';
const csv = (tag: string) => `key,value\nrow-1,${tag}\nrow-2,${tag}\n`;

const inputsOf = (given: Record<string, string>) =>
  readInputs((name) => ({ token: TOKEN, 'api-url': em.url, repository: REPO, ...given })[name] ?? '', {});
const run = (cwd: string, given: Record<string, string>) =>
  runAction(inputsOf(given), { workspace: cwd, writeSpacingMs: 0 });
const tipOf = (section: string) => em.state.repo(REPO).db.readRef(`refs/docdb/${section}`);

describe('feed: after a mode: project run', () => {
  it('writes the feed after the commit, links the viewer; a run that changes nothing: 1 request more, the file as it was', async () => {
    const section = `f${++n}`;
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv('a') });
    const given = { section, feed: '_site/feed.xml', 'viewer-url': VIEWER, 'feed-url': `${VIEWER}feed.xml` };
    const first = await run(cwd, given);
    expect(first.outputs.changed).toBe('true');
    const file = join(cwd, '_site/feed.xml');
    expect(first.outputs.feed).toBe(file);
    expect(first.summary).toMatch(/Feed: 1 entry → `_site\/feed.xml` \(created, 1 commit\(s\) read\)/);
    writeFileSync(join(cwd, 'rows.csv'), csv('b'));
    const second = await run(cwd, given);
    expect(second.outputs.changed).toBe('true');
    expect(xmllint(file)).toBe('');
    const feed = parseFeed(file);
    expect(feed.bozo).toBe(0);
    // The section's first commit is a root: its documents are all added.
    expect(feed.entries.map((e) => e.title)).toEqual(['~2 data/rows', '+2 data/rows']);
    const link = new URL(feed.entries[0]?.links[0]?.href as string);
    expect(Object.fromEntries(link.searchParams)).toEqual({
      repo: REPO,
      ref: `refs/docdb/${section}`,
      view: 'diff',
      from: first.outputs.version,
      to: second.outputs.version,
    });
    expect(feed.feed.links).toContainEqual({ rel: 'self', href: `${VIEWER}feed.xml`, type: 'application/atom+xml' });
    const before = readFileSync(file);
    const { ino, mtimeMs } = statSync(file);
    const { feed: _, ...withoutFeed } = given;
    const { 'viewer-url': _v, 'feed-url': _f, ...plain } = withoutFeed;
    const baseline = await run(cwd, plain);
    expect(baseline.outputs.changed).toBe('false');
    const quiet = await run(cwd, given);
    expect(quiet.outputs.changed).toBe('false');
    // The feed of an unchanged section costs one request: the ref read (a 304).
    expect(Number(quiet.outputs.requests)).toBe(Number(baseline.outputs.requests) + 1);
    expect(quiet.summary).toContain('(up to date)');
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(statSync(file)).toMatchObject({ ino, mtimeMs });
  });
});

describe('feed: refused before any request or commit', () => {
  async function refused(cwd: string, given: Record<string, string>, field: string, message: RegExp) {
    const section = given.section ?? `f${++n}`;
    const from = em.requests.length;
    const err = await (async () => run(cwd, { section, ...given }))().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidConfig);
    expect((err as InvalidConfig).data.field).toBe(field);
    expect((err as Error).message).toMatch(message);
    expect(em.requests.length).toBe(from);
    expect(tipOf(section)).toBeUndefined();
  }

  it('a path out of the workspace: ../, absolute, or through a symbolic link', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv('a') });
    symlinkSync(outside.dir, join(cwd, 'site'));
    await refused(
      cwd,
      { feed: '../feed.xml' },
      'feed',
      /input "feed": "..\/feed.xml" is not a file inside the workspace/,
    );
    await refused(cwd, { feed: join(outside.dir, 'feed.xml') }, 'feed', /is not a file inside the workspace/);
    await refused(cwd, { feed: 'site/feed.xml' }, 'feed', /through a symbolic link it leads to/);
  });

  it('an existing file that is not a docdb feed is refused and left as it was', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv('a'), 'index.html': '<html>home</html>\n' });
    await refused(cwd, { feed: 'index.html' }, 'feed', /input "feed": .*index\.html exists and is not a docdb feed/);
    expect(readFileSync(join(cwd, 'index.html'), 'utf8')).toBe('<html>home</html>\n');
  });

  it.each([
    [{ mode: 'export', feed: 'feed.xml' }, 'feed', /only applies to mode: project, backfill, merge/],
    [{ mode: 'dry-run', feed: 'feed.xml' }, 'feed', /only applies to mode: project, backfill, merge/],
    [{ mode: 'query', namespace: 'a', type: 'b', feed: 'feed.xml' }, 'feed', /only applies to mode/],
    [{ feed: 'feed.xml', shard: '1/2', 'shard-commit': 'merge' }, 'feed', /belongs on the mode: merge job/],
    [{ 'feed-limit': '10' }, 'feed-limit', /needs feed too/],
    [{ 'feed-url': VIEWER }, 'feed-url', /needs feed too/],
    [{ 'viewer-url': VIEWER }, 'viewer-url', /give feed too/],
    [{ feed: 'f.xml', 'feed-limit': '0' }, 'feed-limit', /from 1 to 1000/],
    [{ feed: 'f.xml', 'feed-limit': '1001' }, 'feed-limit', /from 1 to 1000/],
    [{ feed: 'f.xml', 'viewer-url': 'javascript:alert(1)' }, 'viewer-url', /is not an http\(s\) address/],
    [{ feed: 'f.xml', 'feed-url': 'ftp://x.test/feed.xml' }, 'feed-url', /is not an http\(s\) address/],
    [{ mode: 'export', 'viewer-url': VIEWER }, 'viewer-url', /only applies to mode: review, review-publish, project/],
  ])('%j: refused naming %s', (given, field, message) => {
    const err = (() => {
      try {
        inputsOf(given as Record<string, string>);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidConfig);
    expect((err as InvalidConfig).data.field).toBe(field);
    expect((err as Error).message).toMatch(message);
  });
});
