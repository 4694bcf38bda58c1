/**
 * `docdb doc search-index` and `docdb doc search` (issue 42) against the emulator, with a token. Declaring
 * builds the search index in one commit, shows it, declares nothing new the second time, drops it. A search
 * prints a table (score, type, id, matched fields) on stdout and the hits, total, version and request count
 * on stderr — across every declared type of the namespace, or one type; prefix, folded diacritics; --json
 * prints the result with the documents; --limit/--cursor page. Malformed words and flags are usage errors
 * naming the flag before any request; a type without a search index says how to declare one; a missing
 * section is exit 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { untimedFetch } from '../remote-api/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliSearchTestToken0123456789abcdefAB';
const env = { T: TOKEN };
let em: EmulatorHandle;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
});
afterAll(async () => {
  await em?.stop();
});

const NOTES = [
  ['article', 'a1', { title: 'Full-text search in git', body: 'An inverted index kept in the section' }],
  ['article', 'a2', { title: 'Café culture', body: 'Espresso and croissants' }],
  ['article', 'a3', { title: 'Ranking documents', body: 'Search engines rank with BM25; search is fun' }],
  ['page', 'p1', { title: 'Help', body: 'How to search the documentation' }],
  ['draft', 'd1', { title: 'Search draft', body: 'not declared: never a hit' }],
] as const;

const SEARCHED = ['--fields', 'data.title,data.body'];

/** A fresh emulator repository holding NOTES (one commit); its store flags. */
async function notes(): Promise<string[]> {
  const repo = `octo/search-${++n}`;
  em.state.createRepo(repo);
  const flags = ['--repo', repo, '--api-url', em.url, '--token-env', 'T'];
  for (const [type, id, data] of NOTES) {
    const put = await runCli(
      ['doc', 'put', '--namespace', 'notes', '--type', type, '--id', id, '--data', JSON.stringify(data), ...flags],
      { env },
    );
    expect(put.code, put.stderr).toBe(0);
  }
  return flags;
}

/** `notes` with a search index on article and page (not on draft). */
async function searchable(): Promise<string[]> {
  const flags = await notes();
  for (const type of ['article', 'page']) {
    const r = await runCli(['doc', 'search-index', '--namespace', 'notes', '--type', type, ...SEARCHED, ...flags], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
  }
  return flags;
}

/** A RefStore over the repository `flags` name, to write past DocumentStore (as a damaged file would be). */
function rawStore(flags: string[]): RemoteApiRefStore {
  const repo = flags[flags.indexOf('--repo') + 1] as string;
  return new RemoteApiRefStore({
    owner: 'octo',
    repo: repo.split('/')[1]!,
    apiUrl: em.url,
    token: TOKEN,
    transport: untimedFetch(),
  });
}

/** The table's rows after the header, as [type, id, fields]. */
const rowsOf = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
    .map(([, type, id, fields]) => [type, id, fields]);

describe('docdb doc search-index', () => {
  it('declares in one commit, shows, declares nothing new the second time, drops', async () => {
    const flags = await notes();
    const type = ['--namespace', 'notes', '--type', 'article'];
    const declared = await runCli(['doc', 'search-index', ...type, ...SEARCHED, ...flags], { env });
    expect(declared.code, declared.stderr).toBe(0);
    expect(declared.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    expect(declared.stderr).toMatch(
      /^search index notes\/article \(data\.title, data\.body\): new version [0-9a-f]{7} \(previous [0-9a-f]{7}\)\n$/,
    );
    const shown = await runCli(['doc', 'search-index', ...flags], { env });
    expect(shown.stdout).toBe('notes/article: data.title, data.body\n');
    const json = await runCli(['doc', 'search-index', ...type, '--json', ...flags], { env });
    expect(json.json()).toEqual({
      version: 1,
      search: [{ namespace: 'notes', type: 'article', fields: ['data.title', 'data.body'] }],
    });
    // The same fields with the flag repeated: the same declaration, no commit.
    const again = await runCli(
      ['doc', 'search-index', ...type, '--fields', 'data.title', '--fields', 'data.body', '--json', ...flags],
      { env },
    );
    expect(again.json()).toMatchObject({ changed: false, version: declared.stdout.trim() });
    // The declaration at the version before it: none.
    const before = /previous ([0-9a-f]{7})/.exec(declared.stderr)?.[1] as string;
    const old = await runCli(['doc', 'search-index', '--version', before, ...flags], { env });
    expect(old.stdout).toBe('# no search index declared (declare one with --fields)\n');
    const dropped = await runCli(['doc', 'search-index', ...type, '--drop', ...flags], { env });
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(dropped.stderr).toMatch(/^drop search index notes\/article: new version/);
    const none = await runCli(['doc', 'search-index', ...type, ...flags], { env });
    expect(none.stdout).toBe('# no search index declared for notes/article (declare one with --fields)\n');
  });

  it.each([
    [['--fields', 'title'], /--fields: "title": /],
    [['--fields', 'data.a,data.a'], /--fields: /],
    [['--fields', 'data.a', '--drop'], /give --fields or --drop, not both/],
    [['--fields', 'data.a', '--version', 'abcd'], /--version applies to showing the declaration only/],
  ])('%j is a usage error naming the flag (before any request)', async (args, message) => {
    const before = em.requests.length;
    const r = await runCli(
      ['doc', 'search-index', '--namespace', 'notes', '--type', 'article', ...args, '--repo', 'octo/none'],
      { env: { ...env, GITHUB_API_URL: em.url } },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(em.requests.length).toBe(before);
  });

  it('--rebuild: a damaged shard fails every search until the type is rebuilt, in one commit', async () => {
    const flags = await searchable();
    const raw = rawStore(flags);
    const [shard] = (await raw.list({ prefix: '_docdb/search/notes/article/terms/' })).entries.map((e) => e.key);
    await raw.put(shard!, 'not a shard\n');
    const article = ['--namespace', 'notes', '--type', 'article'];
    const refused = await runCli(['doc', 'search', 'espresso', ...article, ...flags], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/InvalidResponse.*doc search-index --rebuild/s);
    const before = em.requests.length;
    const rebuilt = await runCli(['doc', 'search-index', ...article, '--rebuild', '--message', 'fix', ...flags], {
      env,
    });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toMatch(/^rebuild search index notes\/article: new version [0-9a-f]{7} \(previous /);
    const writes = em.requests.slice(before).filter((r) => r.method !== 'GET' && r.path.includes('/git/'));
    expect(writes.map((r) => `${r.method} ${r.path.replace(/.*\/git\//, '')}`)).toEqual([
      'POST trees',
      'POST commits',
      'PATCH refs/docdb/documents',
    ]);
    const found = await runCli(['doc', 'search', 'espresso', ...article, '--json', ...flags], { env });
    expect(found.code, found.stderr).toBe(0);
    expect(found.json()).toMatchObject({ total: 1, hits: [{ id: 'a2' }] });
    // A type without a search index has nothing to rebuild: an error naming it, no commit.
    const draft = await runCli(
      ['doc', 'search-index', '--namespace', 'notes', '--type', 'draft', '--rebuild', ...flags],
      {
        env,
      },
    );
    expect(draft.code).toBe(2);
    expect(draft.stderr).toMatch(/notes\/draft has no search declared/);
  });

  it.each([
    [['--type', 'article', '--rebuild', '--fields', 'data.a'], /give --rebuild alone/],
    [['--type', 'article', '--rebuild', '--drop'], /give --rebuild alone/],
    [['--type', 'article', '--rebuild', '--version', 'abcd'], /--rebuild builds at the tip/],
    [['--rebuild'], /--rebuild needs --namespace and --type/],
    [['--type', 'a/b', '--rebuild'], /--type: .*doc_type "a\/b" is invalid/],
  ])('%j is a usage error naming the flag (before any request)', async (args, message) => {
    const before = em.requests.length;
    const r = await runCli(['doc', 'search-index', '--namespace', 'notes', ...args, '--repo', 'octo/none'], {
      env: { ...env, GITHUB_API_URL: em.url },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(em.requests.length).toBe(before);
  });

  it('--namespace without --type is a usage error naming --type', async () => {
    const r = await runCli(['doc', 'search-index', '--namespace', 'notes', '--drop', '--repo', 'octo/none'], {
      env: { ...env, GITHUB_API_URL: em.url },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give --namespace and --type together/);
  });
});

describe('docdb doc search', () => {
  let flags: string[];
  beforeAll(async () => {
    flags = await searchable();
  });

  it('ranks across the declared types of the namespace: a table on stdout, hits and requests on stderr', async () => {
    const r = await runCli(['doc', 'search', 'search', '--namespace', 'notes', ...flags], { env });
    expect(r.code, r.stderr).toBe(0);
    const [header] = r.stdout.split('\n');
    expect(header).toBe('score\ttype\tid\tfields');
    const rows = rowsOf(r.stdout);
    // draft/d1 holds the word but its type declares no search index: never a hit.
    expect(rows.map(([type, id]) => `${type}/${id}`).sort()).toEqual(['article/a1', 'article/a3', 'page/p1']);
    expect(rows.find(([, id]) => id === 'a3')?.[2]).toBe('data.body');
    const scores = r.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => Number(l.split('\t')[0]));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((s) => s > 0)).toBe(true);
    expect(r.stderr).toMatch(/^# 3 of 3 hit\(s\) at [0-9a-f]{40}, \d+ request\(s\)\n$/);
  });

  it('--type: that type only, in a few requests; the last word matches as a prefix, diacritics fold', async () => {
    const one = await runCli(['doc', 'search', 'Search', '--namespace', 'notes', '--type', 'page', ...flags], {
      env,
    });
    expect(one.code, one.stderr).toBe(0);
    expect(rowsOf(one.stdout)).toEqual([['page', 'p1', 'data.body']]);
    const requests = Number(/(\d+) request/.exec(one.stderr)?.[1]);
    // The library's cost (search-budget.test.ts): the tip with the declaration and the type's manifest; the
    // word's shards; the page's document-table parts; the page's documents — each one GraphQL query.
    expect(requests).toBe(4);
    expect(em.requests.slice(-requests).map((x) => `${x.method} ${x.path}`)).toEqual(Array(4).fill('POST /graphql'));
    const prefix = await runCli(['doc', 'search', 'inverted', 'ind', '--namespace', 'notes', ...flags], { env });
    expect(rowsOf(prefix.stdout)).toEqual([['article', 'a1', 'data.body']]);
    const folded = await runCli(['doc', 'search', 'CAFE', '--namespace', 'notes', '--type', 'article', ...flags], {
      env,
    });
    expect(rowsOf(folded.stdout)).toEqual([['article', 'a2', 'data.title']]);
  });

  it('--json: the hits with their documents, total, version, cursor and cost', async () => {
    const r = await runCli(['doc', 'search', 'espresso', '--namespace', 'notes', '--json', ...flags], { env });
    expect(r.code, r.stderr).toBe(0);
    const out = r.json() as {
      hits: { namespace: string; type: string; id: string; score: number; fields: string[]; document: unknown }[];
      total: number;
      version: string;
      nextCursor: string | null;
      requests: number;
    };
    expect(out.hits).toMatchObject([
      { namespace: 'notes', type: 'article', id: 'a2', fields: ['data.body'], document: { data: NOTES[1][2] } },
    ]);
    expect(out.total).toBe(1);
    expect(out.nextCursor).toBeNull();
    expect(out.version).toMatch(/^[0-9a-f]{40}$/);
    expect(out.requests).toBeGreaterThan(0);
  });

  it('pages with --limit and the printed --cursor, at the same version', async () => {
    const base = ['doc', 'search', 'search', '--namespace', 'notes', '--limit', '2', ...flags];
    const first = await runCli(base, { env });
    expect(first.code, first.stderr).toBe(0);
    expect(rowsOf(first.stdout)).toHaveLength(2);
    expect(first.stderr).toMatch(/^# 2 of 3 hit\(s\)/);
    const cursor = /# more: --cursor (\S+)/.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const second = await runCli([...base, '--cursor', cursor!], { env });
    expect(second.code, second.stderr).toBe(0);
    const ids = [...rowsOf(first.stdout), ...rowsOf(second.stdout)].map(([type, id]) => `${type}/${id}`);
    expect(ids.sort()).toEqual(['article/a1', 'article/a3', 'page/p1']);
    expect(second.stderr).not.toContain('# more');
  });

  it('a type without a search index: a usage error naming --type and the command that declares one', async () => {
    const r = await runCli(['doc', 'search', 'search', '--namespace', 'notes', '--type', 'draft', ...flags], {
      env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--type: .*draft/);
    expect(r.stderr).toContain('docdb doc search-index --namespace notes --type draft --fields');
    expect(r.stdout).toBe('');
    const none = await runCli(['doc', 'search', 'search', '--namespace', 'other', ...flags], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /--namespace: no type of namespace other has search declared; declare one with docdb doc search-index --namespace other --type TYPE --fields/,
    );
  });

  it('a tampered search index is an error naming the files, never a wrong hit (exit 1, no table)', async () => {
    const tampered = await searchable();
    const raw = rawStore(tampered);
    // The ordinal → id table of article, every id moved one place by a raw write (which bypasses DocumentStore).
    const table = '_docdb/search/notes/article/table/0.json';
    const ids = JSON.parse(new TextDecoder().decode((await raw.get(table))!.value!)) as string[];
    expect(ids).toContain('a2');
    await raw.put(table, `${JSON.stringify([...ids.slice(1), ids[0]])}\n`);
    const r = await runCli(['doc', 'search', 'espresso', '--namespace', 'notes', '--type', 'article', ...tampered], {
      env,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/InvalidResponse.*does not hold the words it was found for/s);
    expect(r.stderr).toContain('notes/article');
  });

  it.each([
    [[], /WORDS: /],
    [['!!', '…'], /WORDS: /],
    [[Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ')], /WORDS: /],
    [['x', '--limit', '0'], /--limit must be a positive whole number/],
    [['x', '--limit', '101'], /--limit must be from 1 to 100, got 101/],
    [['x', '--version', 'zz'], /--version must be a commit SHA/],
    [['x', '--cursor', 'nope'], /--cursor: search cursor is not a cursor docdb issued/],
  ])('%j is a usage error naming the flag (before any request)', async (args, message) => {
    const before = em.requests.length;
    const r = await runCli(['doc', 'search', ...args, '--namespace', 'notes', '--repo', 'octo/none'], {
      env: { ...env, GITHUB_API_URL: em.url },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(em.requests.length).toBe(before);
  });

  it('every problem at once (no words, no --namespace); a missing section is exit 3', async () => {
    const two = await runCli(['doc', 'search', '--limit', '500', '--repo', 'octo/none', '--api-url', em.url], {
      env,
    });
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/3 problems with the command line:/);
    expect(two.stderr).toContain('--namespace is required');
    em.state.createRepo('octo/search-empty');
    const missing = await runCli(
      ['doc', 'search', 'x', '--namespace', 'notes', '--repo', 'octo/search-empty', '--api-url', em.url],
      { env: { ...env, GITHUB_TOKEN: TOKEN } },
    );
    expect(missing.code, missing.stderr).toBe(3);
    expect(missing.stderr).toMatch(/section refs\/docdb\/documents does not exist/);
  });
});
