/**
 * `docdb doc put/delete --if-match` and `docdb doc changes`, and versions that are not commits of the
 * section (`doc get --version`), through every store the CLI opens.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { bareRepo, GIT_TEST_ENV, tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliVersionsToken0123456789abcdefAB';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-v-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

let n = 0;
function fresh(kind: 'api' | 'git' | 'subprocess'): { flags: string[]; env: NodeJS.ProcessEnv } {
  n++;
  if (kind === 'api') {
    em.state.createRepo(`octo/cliv-${n}`);
    return {
      flags: ['--repo', `octo/cliv-${n}`, '--api-url', em.url, '--token-env', 'DOCDB_TEST_TOKEN'],
      env: { ...GIT_TEST_ENV, DOCDB_TEST_TOKEN: TOKEN },
    };
  }
  const dir = bareRepo(tmp.dir, `repo-${n}.git`);
  if (kind === 'git') return { flags: ['--refstore', 'git', '--git-dir', dir], env: GIT_TEST_ENV };
  return {
    flags: ['--refstore', 'subprocess', '--remote', pathToFileURL(dir).href, '--git-dir', join(tmp.dir, `c-${n}.git`)],
    env: GIT_TEST_ENV,
  };
}

const ID = ['--namespace', 'notes', '--type', 'note', '--id', 'a'];

describe.each(['api', 'git', 'subprocess'] as const)('docdb doc versions with --refstore %s', (kind) => {
  it('--if-match: create-only, the etag from doc get, a stale etag exits 4 with the current etag', async () => {
    const { flags, env } = fresh(kind);
    const cli = (args: string[]) => runCli([...args, ...flags], { env, cwd: tmp.dir });
    const created = await cli(['doc', 'put', ...ID, '--data', '{"n":1}', '--if-match', 'absent']);
    expect(created.code, created.stderr).toBe(0);
    const again = await cli(['doc', 'put', ...ID, '--data', '{"n":1}', '--if-match', 'absent', '--json']);
    expect(again.code).toBe(4);
    expect((again.json() as { error: { code: string } }).error.code).toBe('PreconditionFailed');

    const got = await cli(['doc', 'get', ...ID, '--json']);
    const etag = (got.json() as { etag: string }).etag;
    expect(etag).toMatch(/^[0-9a-f]{40}$/);
    expect((await cli(['doc', 'get', ...ID])).stderr).toContain(`etag ${etag}`);
    const v2 = await cli(['doc', 'put', ...ID, '--data', '{"n":2}', '--if-match', etag]);
    expect(v2.code, v2.stderr).toBe(0);
    const stale = await cli(['doc', 'put', ...ID, '--data', '{"n":3}', '--if-match', etag, '--json']);
    expect(stale.code).toBe(4);
    const err = (stale.json() as { error: { data: { actual: string; version: string } } }).error;
    expect(err.data.version).toBe(v2.stdout.trim());
    expect(err.data.actual).toMatch(/^[0-9a-f]{40}$/);
    expect(err.data.actual).not.toBe(etag);
    const del = await cli(['doc', 'delete', ...ID, '--if-match', etag]);
    expect(del.code).toBe(4);
    const bad = await cli(['doc', 'delete', ...ID, '--if-match', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--if-match');
    // --if-match absent on delete (the synopsis documents it): only when the document is already gone.
    expect((await cli(['doc', 'delete', ...ID, '--if-match', 'absent'])).code).toBe(4);
    const ok = await cli(['doc', 'delete', ...ID, '--if-match', err.data.actual]);
    expect(ok.code, ok.stderr).toBe(0);
    const gone = await cli(['doc', 'delete', ...ID, '--if-match', 'absent', '--json']);
    expect(gone.code, gone.stderr).toBe(0);
    expect((gone.json() as { changed: boolean }).changed).toBe(false);
  });

  it('doc changes --since [--to] lists added, changed and removed documents; a foreign version exits 3', async () => {
    const { flags, env } = fresh(kind);
    const cli = (args: string[]) => runCli([...args, ...flags], { env, cwd: tmp.dir });
    const v1 = (await cli(['doc', 'put', ...ID, '--data', '1'])).stdout.trim();
    await cli(['doc', 'put', '--namespace', 'notes', '--type', 'note', '--id', 'b', '--data', '1']);
    const v3 = (await cli(['doc', 'put', ...ID, '--data', '2'])).stdout.trim();
    const human = await cli(['doc', 'changes', '--since', v1]);
    expect(human.code, human.stderr).toBe(0);
    // Documents on stdout, the summary on stderr (pipelines see only documents).
    expect(human.stdout).toBe('A notes/note/b\nM notes/note/a\n');
    expect(human.stderr).toBe(`# 1 added, 1 modified, 0 removed: ${v1}..${v3}\n`);
    expect((await cli(['doc', 'changes', '--from', v1])).stdout).toBe(human.stdout); // --from: the same flag
    // One word: the help explains D as "removed", as the counts and --json say (issue 32 item 3).
    const help = (await cli(['doc', 'changes', '--help'])).stdout;
    expect(help).toContain('(added, modified, removed;');
    expect(help).not.toMatch(/deleted/);
    const both = await cli(['doc', 'changes', '--from', v1, '--since', v1]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --since or --from, not both');
    const json = await cli(['doc', 'changes', '--from', v1, '--to', v3, '--json']);
    // The Action's output names: `changed` the yes/no, `modified` the list.
    expect(json.json()).toMatchObject({
      from: v1,
      to: v3,
      changed: true,
      added: [{ namespace: 'notes', doc_type: 'note', id: 'b', key: 'notes/note/b.json' }],
      modified: [{ id: 'a' }],
      removed: [],
    });
    expect((await cli(['doc', 'changes', '--since', v3, '--json'])).json()).toMatchObject({
      changed: false,
      modified: [],
    });
    // The 7 characters docdb prints are typed back: --since, --to and --version resolve them in the section.
    expect(human.stderr).not.toContain(v1.slice(0, 7) + ' '); // (the summary shows full SHAs)
    const short = await cli(['doc', 'changes', '--since', v1.slice(0, 7), '--to', v3.slice(0, 7)]);
    expect(short.code, short.stderr).toBe(0);
    expect(short.stdout).toBe(human.stdout);
    expect(short.stderr).toBe(human.stderr);
    const at = await cli(['doc', 'get', 'notes/note/a', '--version', v1.slice(0, 7).toUpperCase(), '--json']);
    expect(at.json()).toMatchObject({ version: v1, data: 1 });
    // doc list and doc export take the abbreviation too, and read that commit (only notes/note/a at v1).
    const listed = await cli(['doc', 'list', '--version', v1.slice(0, 7)]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('notes/note/a\n');
    const exported = await cli(['doc', 'export', '--version', v1.slice(0, 7)]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(
      exported.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toMatchObject([{ id: 'a', version: v1, data: 1 }]);
    const missing = await cli(['doc', 'changes', '--from', 'f'.repeat(40)]);
    expect(missing.code).toBe(3);
    const none = await cli(['doc', 'changes']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--since is required');
    expect((await cli(['doc', 'changes', '--from', 'xyz'])).code).toBe(2);
  });
});

describe('doc get --version at a commit outside the section', () => {
  it("main's tip is InvalidVersion (exit 3), not main's README", async () => {
    const { flags, env } = fresh('api');
    await runCli(['doc', 'put', ...ID, '--data', '1', ...flags], { env, cwd: tmp.dir });
    const main = em.state.repo(`octo/cliv-${n}`).db.readRef('refs/heads/main')!;
    const r = await runCli(['doc', 'get', ...ID, '--version', main, '--json', ...flags], { env, cwd: tmp.dir });
    expect(r.code).toBe(3);
    expect((r.json() as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'InvalidVersion',
    });
    // Abbreviated, main's tip is searched for in the section only: not found there, and the error says how far it looked.
    const short = await runCli(['doc', 'get', ...ID, '--version', main.slice(0, 7), '--json', ...flags], {
      env,
      cwd: tmp.dir,
    });
    expect(short.code).toBe(3);
    expect((short.json() as { error: { message: string; data: unknown } }).error).toMatchObject({
      message: `--version: version "${main.slice(0, 7)}" is not a commit of the section refs/docdb/documents (searched all 1 commits of the section); use a version printed by this section's writes, list or history`,
      data: { reason: 'not-in-section', searched: 1 },
    });
  });
});
