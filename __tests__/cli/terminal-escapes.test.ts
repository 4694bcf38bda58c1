/**
 * What a remote says reaches the terminal inert (issue 27 §7): a git server's side-band messages (a
 * pre-receive hook's output, relayed by git's own `git http-backend`) and an API's error message carry
 * terminal control sequences (window title, screen clear, OSC 52 clipboard write, `\r` overwrite, C1 CSI,
 * bidi) and workflow commands (`::set-output`, `::add-mask::`): the CLI prints them as visible escapes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { HOSTILE, RAW_CONTROL } from '../core/hostile-text.js';
import { bareRepo, GIT_TEST_ENV, tempDir } from '../git/helpers.js';
import { type GitHttpServer, startGitHttpServer } from '../git/http-git-server.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliEscapesTestToken0123456789abcdefAB';
const HOSTILE_TEXT = Object.values(HOSTILE).join('\n');
let em: EmulatorHandle;
let git: GitHttpServer;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-escapes-');
  git = await startGitHttpServer(tmp.dir, TOKEN);
});
afterAll(async () => {
  await em?.stop();
  await git?.stop();
  tmp?.cleanup();
});

const PUT = ['doc', 'put', '--namespace', 'notes', '--type', 'note', '--id', 'a', '--data', '{"x":1}'];
const env = { ...GIT_TEST_ENV, T: TOKEN };

/** No raw control character, and no line a GitHub runner would read as a workflow command. */
function expectInert(text: string): void {
  expect(text).not.toMatch(RAW_CONTROL);
  expect(text.split('\n').filter((l) => /^\s*(::|##\[)/.test(l))).toEqual([]);
}

describe('the CLI prints what a remote says as visible escapes', () => {
  it("git-http: a pre-receive hook's side-band message with control sequences and workflow commands", async () => {
    const repo = bareRepo(tmp.dir, 'hostile.git');
    writeFileSync(join(repo, 'hooks/message'), `${HOSTILE_TEXT}\n`);
    writeFileSync(join(repo, 'hooks/pre-receive'), '#!/bin/sh\ncat "$(dirname "$0")/message" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const flags = ['--refstore', 'git-http', '--remote', `${git.url}/hostile.git`, '--token-env', 'T'];
    const r = await runCli([...PUT, ...flags], { env, cwd: tmp.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Forbidden: .*pre-receive hook declined/);
    // the hook's words arrived, shown instead of obeyed
    expect(r.stderr).toContain('\\u001B]0;pwned\\u0007');
    expect(r.stderr).toContain('\\u001B]52;c;Y3VybCBldmlsLnNofHNo\\u0007');
    expect(r.stderr).toContain('\\u009B31m');
    expectInert(r.stderr);
  });

  it('the API: an error message with control sequences and workflow commands, human and --json', async () => {
    em.state.createRepo('octo/hostile');
    const flags = ['--repo', 'octo/hostile', '--api-url', em.url, '--token-env', 'T'];
    const get = ['doc', 'get', '--namespace', 'notes', '--type', 'note', '--id', 'a'];
    for (const json of [false, true]) {
      em.inject({ kind: 'status', status: 403, body: { message: HOSTILE_TEXT }, path: /\/git\/ref\//, times: 5 });
      const r = await runCli([...get, ...flags, ...(json ? ['--json'] : [])], { env });
      em.clearFaults();
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^docdb doc get: Forbidden: /);
      expect(r.stderr).toContain('\\u001B[2J');
      expect(r.stderr).toContain('fine\\u000DALL GOOD');
      expect(r.stderr).toContain('abc\\u202Efdp.exe');
      expect(r.stderr).toContain('\\u003A:set-output name=version::0000');
      expectInert(r.stderr);
      expectInert(r.stdout);
      // --json keeps the server's words exactly: the escapes are JSON's own
      if (json) expect((r.json() as { error: { message: string } }).error.message).toContain(HOSTILE.clipboard);
    }
  });
});
