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
