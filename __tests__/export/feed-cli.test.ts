/**
 * `docdb section feed --out FILE` (issue 41, "An Atom feed"): the file (read back by feedparser), the summary, the
 * run on an unchanged section, and the refusals (exit 2 naming the flag; the file left as it was).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../cli/run-cli.js';
import { tempDir } from '../git/helpers.js';
import { blob, parseFeed, xmllint } from './feed-fixture.js';

const TOKEN = 'ghp_CliFeedToken0123456789abcdefABCDEF01';
const REF = 'refs/docdb/documents';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-feed-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

/** A repository whose section has one commit of 3 github/repo documents; its store flags. */
function section(): { repo: string; flags: string[] } {
  const repo = `octo/feed-${++n}`;
  em.state.createRepo(repo);
  const files: Record<string, string> = {};
  for (let i = 0; i < 3; i++) files[`github/repo/o/r${i}.json`] = blob('github', 'repo', `o/r${i}`, { stars: i });
  em.state.commitFiles(repo, { branch: REF, files, message: 'seed' });
  return { repo, flags: ['--repo', repo, '--api-url', em.url, '--token-env', 'T'] };
}
const env = { T: TOKEN };
const out = () => join(tmp.dir, `feed-${n}-${Math.random().toString(36).slice(2, 6)}.xml`);

describe('docdb section feed', () => {
  it('writes the feed with viewer links; run again: up to date, the file not rewritten', async () => {
    const { repo, flags } = section();
    const file = out();
    const viewer = [
      '--viewer-url',
      'https://octo.github.io/data/',
      '--feed-url',
      'https://octo.github.io/data/feed.xml',
    ];
    const r = await runCli(['section', 'feed', ...flags, '--out', file, ...viewer, '--json'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ mode: 'created', entries: 2, read: 2, path: file });
    expect(xmllint(file)).toBe('');
    const feed = parseFeed(file);
    expect(feed.bozo).toBe(0);
    expect(feed.feed.links).toContainEqual({
      rel: 'self',
      href: 'https://octo.github.io/data/feed.xml',
      type: 'application/atom+xml',
    });
    expect(feed.entries.map((e) => e.title)).toEqual(['+3 github/repo', 'no document changed']);
    const link = new URL(feed.entries[0]?.links[0]?.href as string);
    expect(link.searchParams.get('repo')).toBe(repo);
    expect(link.searchParams.get('view')).toBe('diff');
    expect(readFileSync(file).includes(Buffer.from(TOKEN))).toBe(false);
    const before = readFileSync(file);

    const again = await runCli(['section', 'feed', ...flags, '--out', file, ...viewer], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/is up to date \([0-9a-f]{7}\)/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it.each([
    [[], '--out', /give --out FILE/],
    [
      ['--out', 'f.xml', '--viewer-url', 'javascript:alert(1)'],
      '--viewer-url',
      /--viewer-url must be an http\(s\) address/,
    ],
    [['--out', 'f.xml', '--feed-url', 'file:///etc/passwd'], '--feed-url', /--feed-url must be an http\(s\) address/],
    [['--out', 'f.xml', '--limit', '0'], '--limit', /--limit must be a positive whole number/],
    [['--out', 'f.xml', '--limit', '1001'], '--limit', /--limit must be from 1 to 1000/],
    [
      ['--out', 'f.xml', '--viewer-url', 'https://x.test/', '--refstore', 'git', '--git-dir', '/nonexistent'],
      '--viewer-url',
      /needs --refstore api/,
    ],
  ])('usage error %j: exit 2 naming %s, nothing read or written', async (args, flag, message) => {
    const { flags } = section();
    const before = em.requests?.length;
    const r = await runCli(['section', 'feed', ...(args.includes('--refstore') ? [] : flags), ...args], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain(flag);
    expect(em.requests?.length).toBe(before);
  });

  it('a file that is not a docdb feed: exit 2 naming --out, the file left as it was', async () => {
    const { flags } = section();
    const file = out();
    writeFileSync(file, '<html>my page</html>\n');
    const r = await runCli(['section', 'feed', ...flags, '--out', file], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a docdb feed/);
    expect(r.stderr).toContain('--out');
    expect(readFileSync(file, 'utf8')).toBe('<html>my page</html>\n');
  });

  it('a section that does not exist: exit 3', async () => {
    const repo = `octo/feed-empty-${++n}`;
    em.state.createRepo(repo);
    const r = await runCli(
      ['section', 'feed', '--repo', repo, '--api-url', em.url, '--token-env', 'T', '--out', out()],
      {
        env,
      },
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/does not exist/);
  });
});
