/**
 * Issue 37 item 9: a document's key — `ns/type/id.json`, the form the Action's `keys` output, its job summary,
 * commit messages and `doc put --json` print — names that document in every command that takes a document
 * (`doc get`, `history`, `put`, `delete`), and `doc query` takes `NS/TYPE` in one word as `doc get` takes a
 * document. On a local git store (no network).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareRepo, GIT_TEST_ENV, tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

let tmp: ReturnType<typeof tempDir>;
let n = 0;
beforeAll(() => {
  tmp = tempDir('docdb-cli-keys-');
});
afterAll(() => tmp?.cleanup());

const env = GIT_TEST_ENV;
const store = () => ['--refstore', 'git', '--git-dir', bareRepo(tmp.dir, `keys-${++n}.git`)];

/** A section with github/repo/octo/a; the key `doc put --json` printed for it. */
async function section(): Promise<{ flags: string[]; key: string }> {
  const flags = store();
  const put = await runCli(['doc', 'put', 'github/repo/octo/a', '--data', '{"stars":5}', '--json', ...flags], { env });
  expect(put.code, put.stderr).toBe(0);
  const { key } = put.json() as { key: string };
  return { flags, key };
}

describe('a document key names its document (issue 37 item 9)', () => {
  it('doc get, history, put and delete take ns/type/id.json as ns/type/id', async () => {
    const { flags, key } = await section();
    expect(key).toBe('github/repo/octo/a.json');

    const get = await runCli(['doc', 'get', key, '--data-only', ...flags], { env });
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout)).toEqual({ stars: 5 });

    const history = await runCli(['doc', 'history', key, '--json', ...flags], { env });
    expect(history.code, history.stderr).toBe(0);
    expect((history.json() as { entries: unknown[] }).entries).toHaveLength(1);

    // A put by key changes the SAME document (not a new id "octo/a.json").
    const put = await runCli(['doc', 'put', key, '--data', '{"stars":6}', '--json', ...flags], { env });
    expect(put.code, put.stderr).toBe(0);
    expect(put.json()).toMatchObject({ key, changed: true });
    const list = await runCli(['doc', 'list', '--json', ...flags], { env });
    expect((list.json() as { documents: { id: string }[] }).documents.map((d) => d.id)).toEqual(['octo/a']);

    const del = await runCli(['doc', 'delete', key, ...flags], { env });
    expect(del.code, del.stderr).toBe(0);
    expect((await runCli(['doc', 'get', 'github/repo/octo/a', ...flags], { env })).code).toBe(3);
  });

  it('an id that itself ends in .json is its key (ns/type/x.json.json) or --id', async () => {
    const flags = store();
    const put = await runCli(
      ['doc', 'put', '--namespace', 'cfg', '--type', 'file', '--id', 'app.json', '--data', '1', '--json', ...flags],
      { env },
    );
    const { key } = put.json() as { key: string };
    expect(key).toBe('cfg/file/app.json.json');
    const get = await runCli(['doc', 'get', key, '--json', ...flags], { env });
    expect(get.code, get.stderr).toBe(0);
    expect(get.json()).toMatchObject({ namespace: 'cfg', type: 'file', id: 'app.json' });
  });
});

describe('doc query NS/TYPE (issue 37 item 9)', () => {
  it('takes the type in one word, as doc get takes a document', async () => {
    const { flags } = await section();
    const short = await runCli(['doc', 'query', 'github/repo', '--where', 'data.stars>=1', ...flags], { env });
    const long = await runCli(
      ['doc', 'query', '--namespace', 'github', '--type', 'repo', '--where', 'data.stars>=1', ...flags],
      { env },
    );
    expect(short.code, short.stderr).toBe(0);
    expect(short.stdout).toBe('id\tdata.stars\nocto/a\t5\n');
    expect(short.stdout).toBe(long.stdout);
  });

  it('refuses a document name or key, the type twice, and half a type, as usage errors', async () => {
    const { flags } = await section();
    const cases: [string[], RegExp][] = [
      [
        ['github/repo/octo/a.json'],
        /"github\/repo\/octo\/a\.json" names a document, not a type: give NAMESPACE\/TYPE, e.g. github\/repo \(to read the document: docdb doc get github\/repo\/octo\/a\)/,
      ],
      [['github/repo', '--type', 'repo'], /name the type once: "github\/repo" or --type, not both/],
      [['github'], /"github" does not name a type: give NAMESPACE\/TYPE/],
      [
        [],
        /--namespace and --type are required \(the type to query; or name it in one word: NS\/TYPE, e\.g\. github\/repo\)/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['doc', 'query', ...args, ...flags], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
