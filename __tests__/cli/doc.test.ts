/**
 * `docdb doc get|put|list|delete|history` through every store (`--refstore api` against the emulator,
 * `git` on a bare repository, `subprocess` on a file:// remote, `git-http` on `git http-backend`): the same session gives the same
 * results, and errors look the same whichever store is behind them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, git, tempDir } from '../git/helpers.js';
import { type GitHttpServer, startGitHttpServer } from '../git/http-git-server.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliDocTestToken0123456789abcdefABC';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let gitServer: GitHttpServer;
beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-');
  gitServer = await startGitHttpServer(tmp.dir, TOKEN);
});
afterAll(async () => {
  await em?.stop();
  await gitServer?.stop();
  tmp?.cleanup();
});

let n = 0;
/** A fresh, empty section in each kind of store: the flags and environment that select it. */
type Kind = 'api' | 'git' | 'subprocess' | 'git-http';
function freshStore(kind: Kind): {
  flags: string[];
  env: NodeJS.ProcessEnv;
  gitDirs: string[];
} {
  n++;
  if (kind === 'api') {
    em.state.createRepo(`octo/cli-${n}`);
    return {
      flags: ['--repo', `octo/cli-${n}`, '--api-url', em.url],
      env: { ...GIT_TEST_ENV, DOCDB_TEST_TOKEN: TOKEN },
      gitDirs: [],
    };
  }
  const dir = bareRepo(tmp.dir, `repo-${n}.git`);
  if (kind === 'git') return { flags: ['--refstore', 'git', '--git-dir', dir], env: GIT_TEST_ENV, gitDirs: [dir] };
  if (kind === 'git-http') {
    return {
      flags: ['--refstore', 'git-http', '--remote', `${gitServer.url}/repo-${n}.git`],
      env: { ...GIT_TEST_ENV, DOCDB_TEST_TOKEN: TOKEN },
      gitDirs: [dir],
    };
  }
  const cache = join(tmp.dir, `cache-${n}.git`);
  return {
    flags: ['--refstore', 'subprocess', '--remote', pathToFileURL(dir).href, '--git-dir', cache],
    env: GIT_TEST_ENV,
    gitDirs: [dir, cache],
  };
}

const ID = ['--namespace', 'notes', '--type', 'note', '--id', 'team/hello'];

/** The token flag for the stores that take one from the environment. */
const tokenFlagsFor = (kind: Kind) =>
  kind === 'api' || kind === 'git-http' ? ['--token-env', 'DOCDB_TEST_TOKEN'] : [];

describe.each(['api', 'git', 'subprocess', 'git-http'] as const)('docdb doc with --refstore %s', (kind) => {
  it('put → get → list → history → get --version → delete, with the same output for every store', async () => {
    const { flags, env: baseEnv, gitDirs } = freshStore(kind);
    const tokenFlags = tokenFlagsFor(kind);
    const cli = (args: string[], stdin?: string) =>
      runCli([...args, ...flags, ...tokenFlags], {
        env: baseEnv,
        cwd: tmp.dir,
        ...(stdin !== undefined ? { stdin } : {}),
      });

    const p1 = await cli(['doc', 'put', ...ID, '--data', '{"text":"hello"}', '--message', 'first note']);
    expect(p1.code, p1.stderr).toBe(0);
    const v1 = p1.stdout.trim();
    expect(v1).toMatch(/^[0-9a-f]{40}$/);
    expect(p1.stderr).toMatch(/put notes\/note\/team\/hello: new version [0-9a-f]{7} \(section created\)/);

    const p2 = await cli(['doc', 'put', ...ID], '{"text":"hello again"}\n'); // data on stdin
    const v2 = p2.stdout.trim();
    expect(p2.stderr).toContain(`(previous ${v1.slice(0, 7)})`);
    const file = join(tmp.dir, `other-${kind}.json`);
    writeFileSync(file, '{"n": 1}');
    const p3 = await cli([
      'doc',
      'put',
      '--namespace',
      'notes',
      '--type',
      'note',
      '--id',
      'other',
      '--file',
      file,
      '--json',
    ]);
    expect(p3.json()).toMatchObject({ changed: true, previousVersion: v2, written: ['notes/note/other.json'] });
    const v3 = (p3.json() as { version: string }).version;

    const same = await cli(['doc', 'put', ...ID, '--data', '{ "text": "hello again" }']);
    expect(same.code).toBe(0);
    expect(same.stdout.trim()).toBe(v3);
    expect(same.stderr).toMatch(/unchanged, no commit/);

    const got = await cli(['doc', 'get', ...ID]);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toEqual({
      namespace: 'notes',
      type: 'note',
      id: 'team/hello',
      version: v3,
      data: { text: 'hello again' },
    });
    expect(got.stdout).toContain('\n  "namespace"'); // human output is indented

    const list = await cli(['doc', 'list', '--namespace', 'notes']);
    expect(list.stdout).toBe('notes/note/other\nnotes/note/team/hello\n');
    expect(list.stderr).toBe(`# 2 document(s) at ${v3}\n`);
    const page = await cli(['doc', 'list', '--limit', '1', '--json']);
    const first = page.json() as { documents: { id: string }[]; nextCursor: string; version: string };
    expect(first.documents.map((d) => d.id)).toEqual(['other']);
    const next = await cli(['doc', 'list', '--limit', '1', '--cursor', first.nextCursor, '--json']);
    expect((next.json() as { documents: { id: string }[] }).documents.map((d) => d.id)).toEqual(['team/hello']);

    const old = await cli(['doc', 'get', ...ID, '--version', v1, '--json']);
    expect(old.json()).toMatchObject({ version: v1, data: { text: 'hello' } });

    const del = await cli(['doc', 'delete', ...ID]);
    expect(del.code).toBe(0);
    const v4 = del.stdout.trim();
    expect(del.stderr).toMatch(/delete notes\/note\/team\/hello: new version/);
    const again = await cli(['doc', 'delete', ...ID, '--json']);
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ changed: false, version: v4, unchanged: 1 });

    const history = await cli(['doc', 'history', ...ID, '--json']);
    const entries = (history.json() as { entries: { version: string; message: string }[] }).entries;
    expect(entries.map((e) => e.version)).toEqual([v4, v2, v1]);
    expect(entries[2]!.message.trimEnd()).toBe('first note');
    const human = await cli(['doc', 'history', ...ID, '--limit', '2']);
    expect(
      human.stdout
        .trim()
        .split('\n')
        .map((l) => l.slice(0, 40)),
    ).toEqual([v4, v2]);

    for (const d of gitDirs) fsckStrict(d);
  });

  it('not found and bad versions: the same exit codes and error codes for every store', async () => {
    const { flags, env } = freshStore(kind);
    const tokenFlags = tokenFlagsFor(kind);
    const cli = (args: string[]) => runCli([...args, ...flags, ...tokenFlags], { env, cwd: tmp.dir });
    // Before anything was written, the SECTION is what is missing, and the message says which flags name it.
    const section =
      /^section refs\/docdb\/documents does not exist \(.+\): nothing was ever written to it\. Check --section, --root or --ref/;
    const empty = await cli(['doc', 'get', ...ID, '--json']);
    expect(empty.code).toBe(3);
    expect(empty.json()).toEqual({ error: { code: 'NotFound', message: expect.stringMatching(section), exitCode: 3 } });
    const history = await cli(['doc', 'history', ...ID]);
    expect(history.code).toBe(3);
    expect(history.stderr).toMatch(/section refs\/docdb\/documents does not exist/);
    const list = await cli(['doc', 'list', '--json']);
    expect(list.code).toBe(3);
    expect((list.json() as { error: { message: string } }).error.message).toMatch(section);
    await cli(['doc', 'put', ...ID, '--data', '1']);
    // Once the section exists, a missing document is a missing document; another section is still named.
    const other = await cli(['doc', 'get', 'notes/note/nope', '--json']);
    expect(other.code).toBe(3);
    expect((other.json() as { error: { message: string } }).error.message).toMatch(
      /^document notes\/note\/nope not found in /,
    );
    const typo = await cli(['doc', 'list', '--section', 'documnets']);
    expect(typo.code).toBe(3);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toMatch(/section refs\/docdb\/documnets does not exist/);
    const missing = await cli(['doc', 'get', ...ID, '--version', 'f'.repeat(40), '--json']);
    expect(missing.code).toBe(3);
    expect((missing.json() as { error: { code: string } }).error.code).toBe('InvalidVersion');
    expect(missing.stderr).toMatch(/^docdb doc get: InvalidVersion: /);
  });
});

describe('errors of the stores themselves', () => {
  it('a --git-dir that is not a repository is exit code 3 with GitError; an unreachable API is exit code 1', async () => {
    const r = await runCli(['doc', 'get', ...ID, '--refstore', 'git', '--git-dir', join(tmp.dir, 'nothing-here')], {
      env: GIT_TEST_ENV,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^docdb doc get: GitError: .*nothing-here does not exist; create the repository first/);
    const down = await runCli(['doc', 'get', ...ID, '--repo', 'o/r', '--api-url', 'http://127.0.0.1:9', '--json'], {
      env: {},
    });
    expect(down.code).toBe(1);
    expect((down.json() as { error: { code: string } }).error.code).toBe('TransportError');
  });

  it('writing without a token to the API is AuthMissing (exit 1); git history of the bare repo is untouched by reads', async () => {
    em.state.createRepo('octo/no-token');
    const r = await runCli(['doc', 'put', ...ID, '--data', '1', '--repo', 'octo/no-token', '--api-url', em.url], {
      env: {},
    });
    expect(r.code).toBe(1);
    // Its first line says how to give one, in the CLI's terms, not the library's options (issue 22).
    const first = r.stderr.split('\n')[0];
    expect(first).toMatch(/^docdb doc put: AuthMissing: put: writing to octo\/no-token needs a token/);
    expect(first).toContain(
      'Set GITHUB_TOKEN (or GH_TOKEN), name another variable with --token-env NAME, or log in with `gh auth login`',
    );
    expect(r.stderr).not.toContain('configure token or credentials');
    const dir = bareRepo(tmp.dir, 'untouched.git');
    await runCli(['doc', 'list', '--refstore', 'git', '--git-dir', dir], { env: GIT_TEST_ENV });
    expect(git(['--git-dir', dir, 'for-each-ref']).trim()).toBe('');
  });
});
