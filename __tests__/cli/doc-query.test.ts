/**
 * `docdb doc index` and `docdb doc query` (issue 28 items 1 and 4). Declaring — on a local git store, whose
 * writes keep the index in the same commit — builds the index in one commit, shows it, drops it. A query
 * against the emulator (a section as the library writes it, documents and index: indexed-section.ts) names
 * whether the index answered, the version and the request count; --fields answers from the index alone;
 * --format csv|jsonl|json; paging with --cursor; an unindexed field falls back to the documents (or, with
 * --require-index, is a usage error naming it); malformed clauses and flags are usage errors naming the
 * flag; a missing section is exit 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { indexedSectionFiles } from '../document/indexed-section.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliQueryTestToken0123456789abcdefAB';
const env = { T: TOKEN };
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-query-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

const REPOS = [
  { id: 'octo/a', data: { language: 'TypeScript', stars: 50, name: 'a', topics: ['cli'] } },
  { id: 'octo/b', data: { language: 'TypeScript', stars: 12, name: 'b,"quoted"', topics: ['web'] } },
  { id: 'octo/c', data: { language: 'Go', stars: 99, name: 'c', topics: [] } },
  { id: 'octo/d', data: { language: 'TypeScript', stars: 3, name: 'd' } },
  { id: 'octo/e', data: { language: 'TypeScript', stars: '12', name: 'e' } },
];

const TYPE = ['--namespace', 'github', '--type', 'repo'];
const DOCUMENTS = REPOS.map((r) => ({ namespace: 'github', type: 'repo', ...r }));

/** An emulator repository whose section holds REPOS and their index on language and stars; its flags. */
async function indexed(): Promise<string[]> {
  const repo = `octo/query-${++n}`;
  em.state.createRepo(repo);
  const files = await indexedSectionFiles(DOCUMENTS, [
    { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] },
  ]);
  em.state.commitFiles(repo, { branch: 'refs/docdb/documents', orphan: true, files });
  return ['--repo', repo, '--api-url', em.url, '--token-env', 'T'];
}

describe('docdb doc index (on a local git store)', () => {
  it('declares in one commit, shows the declaration, declares nothing new the second time, drops', async () => {
    const dir = bareRepo(tmp.dir, `index-${++n}.git`);
    const flags = ['--refstore', 'git', '--git-dir', dir];
    const env = GIT_TEST_ENV;
    for (const r of REPOS.slice(0, 2)) {
      const put = await runCli(['doc', 'put', ...TYPE, '--id', r.id, '--data', JSON.stringify(r.data), ...flags], {
        env,
      });
      expect(put.code, put.stderr).toBe(0);
    }
    const declared = await runCli(
      ['doc', 'index', ...TYPE, '--field', 'data.language', '--field', 'data.stars', ...flags],
      { env },
    );
    expect(declared.code, declared.stderr).toBe(0);
    expect(declared.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    expect(declared.stderr).toMatch(/^index github\/repo \(data\.language, data\.stars\): new version [0-9a-f]{7}/);
    const query = await runCli(['doc', 'query', ...TYPE, '--where', 'data.stars>=10', '--require-index', ...flags], {
      env,
    });
    expect(query.code, query.stderr).toBe(0);
    expect(query.stdout).toBe('id\tdata.language\tdata.stars\nocto/a\tTypeScript\t50\nocto/b\tTypeScript\t12\n');
    expect(query.stderr).toMatch(/answered by the index, 0 request\(s\)/);
    const shown = await runCli(['doc', 'index', ...flags], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe('github/repo: data.language, data.stars\n');
    const json = await runCli(['doc', 'index', ...TYPE, '--json', ...flags], { env });
    expect(json.json()).toEqual({
      version: 1,
      indexes: [{ namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] }],
    });
    const again = await runCli(
      ['doc', 'index', ...TYPE, '--field', 'data.language', '--field', 'data.stars', '--json', ...flags],
      { env },
    );
    expect(again.json()).toMatchObject({ changed: false });
    const dropped = await runCli(['doc', 'index', ...TYPE, '--drop', ...flags], { env });
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toMatch(/drop index github\/repo: new version/);
    expect((await runCli(['doc', 'index', ...flags], { env })).stdout).toBe(
      '# no index declared (declare one with --field)\n',
    );
    fsckStrict(dir);
  });

  it.each([
    [['--field', 'stars'], /--field "stars": .*must be "id" or a dotted path into data/],
    [['--field', 'data.a', '--drop'], /give --field or --drop, not both/],
    [['--namespace', 'github'], /give --namespace and --type together/],
  ])('%j is a usage error naming the flag', async (args, message) => {
    const extra = args.includes('--namespace') ? args : [...TYPE, ...args];
    const r = await runCli(['doc', 'index', ...extra, '--repo', 'octo/none', '--api-url', em.url], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('docdb doc query', () => {
  let flags: string[];
  beforeAll(async () => {
    flags = await indexed();
  });

  it('answers from the index: a table on stdout, the version, the index and the request count on stderr', async () => {
    const r = await runCli(
      [
        'doc',
        'query',
        ...TYPE,
        '--where',
        'data.language=TypeScript',
        '--where',
        'data.stars>=10',
        '--order-by',
        '-data.stars',
        '--fields',
        'data.stars',
        ...flags,
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    // Types never mix: the string "12" of octo/e is not >= 10.
    expect(r.stdout).toBe('id\tdata.stars\nocto/a\t50\nocto/b\t12\n');
    expect(r.stderr).toMatch(/^# 2 row\(s\) at [0-9a-f]{40}, answered by the index, \d+ request\(s\)\n$/);
    const requests = Number(/(\d+) request/.exec(r.stderr)?.[1]);
    expect(requests).toBeGreaterThan(0);
    expect(requests).toBeLessThanOrEqual(12);
  });

  it('--json: the whole result; without --fields the documents are read too', async () => {
    const r = await runCli(['doc', 'query', ...TYPE, '--where', 'data.language in Go', '--json', ...flags], { env });
    expect(r.code, r.stderr).toBe(0);
    const out = r.json() as {
      rows: { id: string; values: Record<string, unknown> }[];
      documents: { data: unknown }[];
      answeredBy: string;
      version: string;
      requests: number;
    };
    expect(out.answeredBy).toBe('index');
    expect(out.requests).toBeGreaterThan(0);
    expect(out.rows).toMatchObject([{ id: 'octo/c', values: { 'data.language': 'Go', 'data.stars': 99 } }]);
    expect(out.documents).toMatchObject([{ data: REPOS[2]!.data }]);
    expect(out.version).toMatch(/^[0-9a-f]{40}$/);
  });

  it('--format csv (RFC 4180), jsonl (the documents without --fields), json (one array)', async () => {
    const base = ['doc', 'query', ...TYPE, '--where', 'data.stars<=12', ...flags];
    const csv = await runCli([...base, '--format', 'csv', '--fields', 'data.stars,data.language'], { env });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe('id,data.stars,data.language\nocto/b,12,TypeScript\nocto/d,3,TypeScript\n');
    const jsonl = await runCli([...base, '--format', 'jsonl'], { env });
    const lines = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.data.name])).toEqual([
      ['octo/b', 'b,"quoted"'],
      ['octo/d', 'd'],
    ]);
    const json = await runCli([...base, '--format', 'json', '--fields', 'data.stars'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject([
      { id: 'octo/b', values: { 'data.stars': 12 } },
      { id: 'octo/d', values: { 'data.stars': 3 } },
    ]);
  });

  it('pages with --limit and the printed --cursor', async () => {
    const page = (extra: string[]) =>
      runCli(
        [
          'doc',
          'query',
          ...TYPE,
          '--order-by',
          'data.stars',
          '--fields',
          'data.stars',
          '--limit',
          '2',
          ...extra,
          ...flags,
        ],
        {
          env,
        },
      );
    const first = await page([]);
    expect(first.stdout).toBe('id\tdata.stars\nocto/d\t3\nocto/b\t12\n');
    const cursor = /# more: --cursor (\S+)/.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const second = await page(['--cursor', cursor!]);
    expect(second.stdout).toBe('id\tdata.stars\nocto/a\t50\nocto/c\t99\n');
  });

  it('an unindexed field: read from the documents and said so; with --require-index a usage error naming it', async () => {
    const fallback = await runCli(['doc', 'query', ...TYPE, '--where', 'data.name=d', ...flags], { env });
    expect(fallback.code, fallback.stderr).toBe(0);
    expect(fallback.stdout.split('\n')[1]).toMatch(/^octo\/d/);
    expect(fallback.stderr).toMatch(
      /answered by reading the documents \(.*data\.name.*\); declare one with docdb doc index/,
    );
    const strict = await runCli(['doc', 'query', ...TYPE, '--where', 'data.name=d', '--require-index', ...flags], {
      env,
    });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(
      /--require-index: .*data\.name.*; declare the fields with docdb doc index --namespace github --type repo --field FIELD, or leave out --require-index/,
    );
    expect(strict.stdout).toBe('');
  });

  it.each([
    [['--where', 'data.stars'], /--where: "data.stars": it is not FIELD OPERATOR VALUE; allowed: FIELD=VALUE/],
    [['--where', 'data.stars>=true'], /--where: "data.stars>=true": its value for ">=" is true/],
    // Once silently the value "=open" and 0 rows (issue 37 item 7).
    [['--where', 'data.state==open'], /--where: "data.state==open": "==" is not an operator \(the operators are =, </],
    [['--where', 'data.id=9007199254740993'], /--where: "data.id=9007199254740993": a number beyond/],
    [['--order-by', 'stars'], /--order-by: "stars" is not a field/],
    [['--limit', '0'], /--limit must be a positive whole number/],
    [['--limit', '20000'], /--limit: query limit is invalid/],
    [['--fields', 'stars'], /--fields: query fields\[0\] is "stars"/],
    [['--format', 'csv', '--json'], /give --format or --json, not both/],
    [['--format', 'xml'], /--format "xml" is not a format/],
  ])('%j is a usage error naming the flag (before any request)', async (args, message) => {
    const before = em.requests.length;
    const r = await runCli(['doc', 'query', ...TYPE, ...args, '--repo', 'octo/none', '--api-url', em.url], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(em.requests.length).toBe(before);
  });

  it('every problem of the command line at once; a missing section is exit 3', async () => {
    const two = await runCli(
      ['doc', 'query', '--where', 'nope', '--limit', 'x', '--repo', 'o/r', '--api-url', em.url],
      {
        env,
      },
    );
    expect(two.code).toBe(2);
    // The missing --namespace/--type, the clause and the limit: one message.
    expect(two.stderr).toMatch(/3 problems with the command line:\n {2}- --namespace and --type are required/);
    expect(two.stderr).toContain('--where: "nope"');
    expect(two.stderr).toContain('--limit must be a positive whole number');
    em.state.createRepo('octo/query-empty');
    const missing = await runCli(
      ['doc', 'query', ...TYPE, '--repo', 'octo/query-empty', '--api-url', em.url, '--token-env', 'T'],
      {
        env,
      },
    );
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/section refs\/docdb\/documents does not exist/);
  });
});
