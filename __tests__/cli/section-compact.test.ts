/** `docdb section compact` through the API (emulator) and a local git repository: result, usage errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { bareRepo, GIT_TEST_ENV, git, tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliCompactToken0123456789abcdefABCD';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-compact-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

let n = 0;
function fresh(kind: 'api' | 'git'): { flags: string[]; env: NodeJS.ProcessEnv; dir?: string } {
  n++;
  if (kind === 'api') {
    em.state.createRepo(`octo/compact-${n}`);
    return {
      flags: ['--repo', `octo/compact-${n}`, '--api-url', em.url, '--token-env', 'DOCDB_TEST_TOKEN'],
      env: { ...GIT_TEST_ENV, DOCDB_TEST_TOKEN: TOKEN },
    };
  }
  const dir = bareRepo(tmp.dir, `repo-${n}.git`);
  return { flags: ['--refstore', 'git', '--git-dir', dir], env: GIT_TEST_ENV, dir };
}

describe.each(['api', 'git'] as const)('docdb section compact --refstore %s', (kind) => {
  it('keeps the last N commits; the documents read as before; a second run has nothing to do', async () => {
    const { flags, env } = fresh(kind);
    const cli = (args: string[]) => runCli([...args, ...flags], { env, cwd: tmp.dir });
    for (let i = 0; i < 5; i++) {
      const put = await cli(['doc', 'put', 'notes/note/a', '--data', `{"n":${i}}`]);
      expect(put.code, put.stderr).toBe(0);
    }
    const r = await cli(['section', 'compact', '--keep-commits', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ compacted: true, kept: 2, attempts: 1 });
    const got = await cli(['doc', 'get', 'notes/note/a', '--json']);
    expect(got.json()).toMatchObject({ data: { n: 4 } });
    const history = await cli(['doc', 'history', 'notes/note/a', '--json']);
    const h = history.json() as { entries: { version: string }[]; compactedAt: string };
    expect(h.entries).toHaveLength(2);
    expect(h.compactedAt).toBe(h.entries[1]!.version);
    const said = await cli(['doc', 'history', 'notes/note/a']);
    expect(said.stderr).toMatch(/history compacted at [0-9a-f]{7}: older versions were removed/);
    const again = await cli(['section', 'compact', '--keep-commits', '2']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/nothing to compact/);
  });
});

describe.each(['api', 'git'] as const)('docdb section compact --dry-run --refstore %s', (kind) => {
  it('says what would be kept and removed and writes nothing; the run then says how many it removed; a removed version says which compaction removed it', async () => {
    const { flags, env, dir } = fresh(kind);
    const cli = (args: string[]) => runCli([...args, ...flags], { env, cwd: tmp.dir });
    const versions: string[] = [];
    for (let i = 0; i < 5; i++) {
      const put = await cli(['doc', 'put', 'notes/note/a', '--data', `{"n":${i}}`, '--json']);
      versions.push((put.json() as { version: string }).version);
    }
    // What is there before: every request the emulator answers; the git repository's objects and ref.
    const written = () =>
      kind === 'api'
        ? em.requests.filter((q) => q.method !== 'GET' && q.method !== 'HEAD').length
        : git(['--git-dir', dir!, 'count-objects', '-v']) + git(['--git-dir', dir!, 'for-each-ref']);
    const before = written();
    const start = em.requests.length;
    const dry = await cli(['section', 'compact', '--keep-commits', '2', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`at ${versions[4]!.slice(0, 7)} has 5 commit(s)`);
    expect(dry.stdout).toContain(`would keep 2 and remove 3; oldest kept: ${versions[3]!.slice(0, 7)} of `);
    expect(dry.stdout).toMatch(
      kind === 'api'
        ? /would take 5 requests on GitHub's API \(3 content-creating: 2 commits and the move\), within GitHub's limits without waiting/
        : /would create 2 commits and move the ref once/,
    );
    const json = await cli(['section', 'compact', '--keep-commits', '2', '--dry-run', '--json']);
    expect(json.json()).toMatchObject({
      dryRun: true,
      compacted: false,
      version: versions[4],
      kept: 2,
      removed: 3,
      plan: { listed: 5, kept: 2, removed: 3, oldestKept: { version: versions[3] } },
    });
    // Zero writes: the emulator saw only reads (no POST, PATCH, GraphQL); git has not one new object.
    expect(written()).toEqual(before);
    if (kind === 'api') expect(em.requests.slice(start).every((q) => q.method === 'GET')).toBe(true);
    const run = await cli(['section', 'compact', '--keep-commits', '2']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/: 2 commits kept, 3 removed \(was [0-9a-f]{7}, now [0-9a-f]{7}\)/);
    const root = (await cli(['doc', 'history', 'notes/note/a', '--json'])).json() as { compactedAt: string };
    // A removed version, as docdb printed it (7 characters) and in full: which compaction, when, kept from where.
    const by = new RegExp(
      `removed by the compaction at ${versions[4]} on \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ; history kept from ${root.compactedAt}`,
    );
    for (const v of [versions[1]!.slice(0, 7), versions[1]!]) {
      const got = await cli(['doc', 'get', 'notes/note/a', '--version', v]);
      expect(got.code, got.stderr).toBe(3);
      expect(got.stderr).toMatch(by);
      expect(got.stderr).not.toMatch(/searched all/);
    }
  });
});

describe('docdb section compact: the command line', () => {
  it('refuses a policy that keeps nothing and a bad --thin, both at once, before any I/O (exit 2)', async () => {
    const r = await runCli(['section', 'compact', '--thin', 'month', '--refstore', 'git', '--git-dir', '/nonexistent']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/2 problems/);
    expect(r.stderr).toMatch(/--thin must be day or week/);
    expect(r.stderr).toMatch(/keeps nothing/);
    const zero = await runCli(['section', 'compact', '--keep-commits', '0', '--refstore', 'git', '--git-dir', '/x']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/--keep-commits must be a positive whole number/);
  });

  it('a section that does not exist is "not found" (exit 3); "docdb compact" suggests "docdb section compact"', async () => {
    const { flags, env } = fresh('git');
    const r = await runCli(['section', 'compact', '--keep-days', '30', ...flags], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/does not exist/);
    const typo = await runCli(['compact']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/did you mean "docdb section compact"/);
  });

  it('git: the new root holds the oldest kept tree (git rev-list)', async () => {
    const { flags, env, dir } = fresh('git');
    const cli = (args: string[]) => runCli([...args, ...flags], { env, cwd: tmp.dir });
    for (let i = 0; i < 4; i++) await cli(['doc', 'put', 'notes/note/b', '--data', `{"n":${i}}`]);
    const trees = git(['--git-dir', dir!, 'log', '--format=%T', 'refs/docdb/documents']).trim().split('\n');
    expect((await cli(['section', 'compact', '--keep-commits', '3'])).code).toBe(0);
    const after = git(['--git-dir', dir!, 'log', '--format=%T %P', 'refs/docdb/documents']).trim().split('\n');
    expect(after.map((l) => l.split(' ')[0])).toEqual(trees.slice(0, 3));
    expect(after[2]!.trim()).toBe(trees[2]); // no parent
  });
});
