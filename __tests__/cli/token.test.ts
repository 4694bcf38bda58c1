/**
 * Where the CLI's token comes from (--token-env NAME, else GITHUB_TOKEN, else GH_TOKEN, else
 * `gh auth token`), and that it is never printed — not in human output, not in --json errors, not in
 * the argv of `gh` or git. A git remote (git-http, subprocess over https) gets GitHub's token sources
 * only when its host is a GitHub host: a server anywhere else never receives GITHUB_TOKEN or GH_TOKEN.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveToken } from '../../src/cli/token.js';
import { isGitHubHost, resolveRemoteToken } from '../../src/cli/token-remote.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { bareRepo, GIT_TEST_ENV, tempDir } from '../git/helpers.js';
import { startGitHttpServer } from '../git/http-git-server.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliTokenTest0123456789abcdefABCDEFG';
const WRONG = 'ghp_WrongCliToken9876543210zyxwvutsrqpo';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  em.state.createRepo('octo/tokens');
  tmp = tempDir('docdb-cli-token-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

/** A fake `gh` on PATH: logs its argv, prints `token` for `auth token` (exit 1 when token is empty). */
function fakeGh(name: string, token: string): { path: string; log: string } {
  const dir = join(tmp.dir, name);
  const log = join(tmp.dir, `${name}.log`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'gh'),
    `#!/bin/sh\necho "$@" >> '${log}'\n[ "$1 $2" = "auth token" ] || exit 2\n${token ? `echo '${token}'` : 'echo "no oauth token" >&2; exit 1'}\n`,
    { mode: 0o755 },
  );
  return { path: `${dir}:${process.env.PATH}`, log };
}

describe('token resolution', () => {
  it('--token-env wins, then GITHUB_TOKEN, then GH_TOKEN, then gh, else none', async () => {
    const gh = async () => 'from-gh';
    const env = { MINE: 'from-mine', GITHUB_TOKEN: 'from-github-token', GH_TOKEN: 'from-gh-token' };
    expect(await resolveToken({ tokenEnv: 'MINE', env, ghHost: 'github.com', gh })).toEqual({
      token: 'from-mine',
      source: '$MINE',
    });
    expect((await resolveToken({ tokenEnv: undefined, env, ghHost: 'github.com', gh })).token).toBe(
      'from-github-token',
    );
    expect((await resolveToken({ tokenEnv: undefined, env: { GH_TOKEN: 'x' }, ghHost: 'github.com', gh })).token).toBe(
      'x',
    );
    expect(await resolveToken({ tokenEnv: undefined, env: {}, ghHost: 'github.com', gh })).toEqual({
      token: 'from-gh',
      source: 'gh auth token',
    });
    expect(
      await resolveToken({ tokenEnv: undefined, env: {}, ghHost: 'github.com', gh: async () => undefined }),
    ).toEqual({
      token: undefined,
      source: 'none',
    });
    // A named variable that is unset or empty is an error, never a silent fallback.
    await expect(resolveToken({ tokenEnv: 'NOPE', env, ghHost: undefined, gh })).rejects.toThrow(/NOPE is not set/);
    await expect(resolveToken({ tokenEnv: 'EMPTY', env: { EMPTY: '' }, ghHost: undefined, gh })).rejects.toThrow(
      /EMPTY is not set/,
    );
  });

  it('gh auth token is asked for the API host (its argv carries no token) and its token is used', async () => {
    const { path, log } = fakeGh('gh-ok', TOKEN);
    const r = await runCli(
      [
        'doc',
        'put',
        '--namespace',
        'n',
        '--type',
        't',
        '--id',
        'via-gh',
        '--data',
        '1',
        '--repo',
        'octo/tokens',
        '--api-url',
        em.url,
      ],
      { env: { PATH: path } },
    );
    expect(r.code, r.stderr).toBe(0);
    const calls = readFileSync(log, 'utf8');
    expect(calls.trim()).toBe(`auth token --hostname ${new URL(em.url).host}`);
    expect(calls).not.toContain(TOKEN);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('with gh not logged in, or not installed, reads are anonymous and a write is AuthMissing', async () => {
    const { path } = fakeGh('gh-logged-out', '');
    for (const PATH of [path, join(tmp.dir, 'empty-path')]) {
      const r = await runCli(
        [
          'doc',
          'put',
          '--namespace',
          'n',
          '--type',
          't',
          '--id',
          'anon',
          '--data',
          '1',
          '--repo',
          'octo/tokens',
          '--api-url',
          em.url,
        ],
        { env: { PATH } },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/AuthMissing/);
    }
  });

  it('a rejected token is AuthInvalid and appears nowhere in the output (human or --json)', async () => {
    for (const json of [false, true]) {
      const r = await runCli(
        [
          'doc',
          'get',
          '--namespace',
          'n',
          '--type',
          't',
          '--id',
          'x',
          '--repo',
          'octo/tokens',
          '--api-url',
          em.url,
          ...(json ? ['--json'] : []),
        ],
        { env: { GITHUB_TOKEN: WRONG } },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/AuthInvalid/);
      expect(r.stdout + r.stderr).not.toContain(WRONG);
    }
  });

  it('--refstore subprocess hands an https token to git through GIT_ASKPASS, never printing it', async () => {
    bareRepo(tmp.dir, 'served.git');
    const server = await startGitHttpServer(tmp.dir, TOKEN);
    try {
      const base = [
        '--namespace',
        'n',
        '--type',
        't',
        '--id',
        'x',
        '--refstore',
        'subprocess',
        '--remote',
        `${server.url}/served.git`,
      ];
      const cache = ['--git-dir', join(tmp.dir, 'http-cache.git')];
      const ok = await runCli(
        ['doc', 'put', ...base, ...cache, '--data', '{"ok":true}', '--token-env', 'MY_GIT_TOKEN'],
        {
          env: { ...GIT_TEST_ENV, MY_GIT_TOKEN: TOKEN },
        },
      );
      expect(ok.code, ok.stderr).toBe(0);
      expect(server.requests.some((r) => r.auth === 'ok')).toBe(true);
      // GITHUB_TOKEN goes to this loopback host only because GITHUB_SERVER_URL names it, as on an Actions runner.
      const bad = await runCli(['doc', 'get', ...base, '--git-dir', join(tmp.dir, 'http-cache-2.git'), '--json'], {
        env: { ...GIT_TEST_ENV, GITHUB_TOKEN: WRONG, GITHUB_SERVER_URL: server.url },
      });
      expect(bad.code).toBe(1);
      expect((bad.json() as { error: { code: string } }).error.code).toBe('AuthInvalid');
      // The way out names where the rejected token came from, and where a git remote's token is looked for.
      expect(bad.stderr).toContain(
        'Here the token came from $GITHUB_TOKEN; docdb takes for a git remote --token-env NAME, else $DOCDB_GIT_TOKEN',
      );
      expect(ok.stdout + ok.stderr + bad.stdout + bad.stderr).not.toMatch(new RegExp(`${TOKEN}|${WRONG}`));
      expect(existsSync(join(tmp.dir, 'http-cache.git'))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

describe('a git remote gets GitHub token sources only on a GitHub host', () => {
  it('isGitHubHost: github.com, *.ghe.com, the GITHUB_SERVER_URL host, the GH_HOST host — nothing else', () => {
    expect(isGitHubHost('github.com', {})).toBe(true);
    expect(isGitHubHost('octo.ghe.com', {})).toBe(true);
    expect(isGitHubHost('GitHub.com', {})).toBe(true);
    for (const other of [
      'gitlab.com',
      'gitea.example.com',
      'github.com.evil.example',
      'notgithub.com',
      '127.0.0.1:80',
    ]) {
      expect(isGitHubHost(other, {}), other).toBe(false);
    }
    expect(isGitHubHost('github.com:8443', {})).toBe(false);
    expect(isGitHubHost('ghe.corp.example', { GITHUB_SERVER_URL: 'https://ghe.corp.example' })).toBe(true);
    expect(isGitHubHost('127.0.0.1:4000', { GITHUB_SERVER_URL: 'http://127.0.0.1:4000' })).toBe(true);
    expect(isGitHubHost('127.0.0.1:4001', { GITHUB_SERVER_URL: 'http://127.0.0.1:4000' })).toBe(false);
    expect(isGitHubHost('ghe.corp.example', { GH_HOST: 'ghe.corp.example' })).toBe(true);
    expect(isGitHubHost('ghe.corp.example', { GH_HOST: 'other.example', GITHUB_SERVER_URL: 'not a url' })).toBe(false);
  });

  it('resolveRemoteToken: --token-env, then DOCDB_GIT_TOKEN (any host); GitHub sources only on a GitHub host', async () => {
    const asked: string[] = [];
    const gh = async (host: string) => {
      asked.push(host);
      return 'from-gh';
    };
    const env = { GITHUB_TOKEN: 'from-github-token', GH_TOKEN: 'from-gh-token', MINE: 'from-mine' };
    const gitea = 'https://gitea.example.com/o/r.git';
    expect(await resolveRemoteToken({ tokenEnv: undefined, env, remote: gitea, gh })).toEqual({
      token: undefined,
      source: 'none',
    });
    expect(asked).toEqual([]); // gh is not even asked about another host
    expect((await resolveRemoteToken({ tokenEnv: 'MINE', env, remote: gitea, gh })).token).toBe('from-mine');
    const withGit = { ...env, DOCDB_GIT_TOKEN: 'from-docdb-git' };
    expect(await resolveRemoteToken({ tokenEnv: undefined, env: withGit, remote: gitea, gh })).toEqual({
      token: 'from-docdb-git',
      source: '$DOCDB_GIT_TOKEN',
    });
    const github = 'https://github.com/o/r.git';
    expect((await resolveRemoteToken({ tokenEnv: undefined, env, remote: github, gh })).token).toBe(
      'from-github-token',
    );
    expect((await resolveRemoteToken({ tokenEnv: undefined, env: {}, remote: github, gh })).token).toBe('from-gh');
    expect(asked).toEqual(['github.com']);
    const ghes = { GITHUB_SERVER_URL: 'https://ghe.corp.example', GH_TOKEN: 'from-gh-token' };
    const onGhes = await resolveRemoteToken({
      tokenEnv: undefined,
      env: ghes,
      remote: 'https://ghe.corp.example/o/r.git',
      gh,
    });
    expect(onGhes.token).toBe('from-gh-token');
  });

  /** A served repository and the flags of one CLI write to it through `kind`. */
  async function servedRemote(name: string) {
    bareRepo(tmp.dir, `${name}.git`);
    const server = await startGitHttpServer(tmp.dir, TOKEN);
    const flags = (kind: 'git-http' | 'subprocess', id: string) => [
      'doc',
      'put',
      '--namespace',
      'n',
      '--type',
      't',
      '--id',
      id,
      '--data',
      '1',
      '--refstore',
      kind,
      '--remote',
      `${server.url}/${name}.git`,
      ...(kind === 'subprocess' ? ['--git-dir', join(tmp.dir, `${name}-${id}-cache.git`)] : []),
    ];
    return { server, flags };
  }

  it.each(['git-http', 'subprocess'] as const)(
    '--refstore %s: a non-GitHub host never receives GITHUB_TOKEN, GH_TOKEN or gh’s token',
    async (kind) => {
      const { server, flags } = await servedRemote(`not-github-${kind}`);
      const gh = fakeGh(`gh-${kind}`, TOKEN);
      try {
        // The server would accept TOKEN: only its absence from every request makes this write fail.
        const r = await runCli(flags(kind, 'anon'), {
          env: { ...GIT_TEST_ENV, PATH: gh.path, GITHUB_TOKEN: TOKEN, GH_TOKEN: TOKEN },
        });
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/AuthMissing/);
        expect(r.stderr).toContain('takes its token only from --token-env NAME or DOCDB_GIT_TOKEN');
        expect(server.requests.length).toBeGreaterThan(0);
        expect(server.requests.map((q) => q.auth)).toEqual(server.requests.map(() => 'none'));
        expect(existsSync(gh.log)).toBe(false); // gh was not asked for this host's token
      } finally {
        await server.stop();
      }
    },
  );

  it.each(['git-http', 'subprocess'] as const)(
    '--refstore %s: GITHUB_TOKEN goes to the host GITHUB_SERVER_URL names; --token-env and DOCDB_GIT_TOKEN to any host',
    async (kind) => {
      const { server, flags } = await servedRemote(`github-like-${kind}`);
      try {
        const cases: [string, NodeJS.ProcessEnv, string[]][] = [
          ['actions', { GITHUB_TOKEN: TOKEN, GITHUB_SERVER_URL: server.url }, []],
          ['gh-host', { GH_TOKEN: TOKEN, GH_HOST: new URL(server.url).host }, []],
          ['token-env', { GITHUB_TOKEN: WRONG, MY_TOKEN: TOKEN }, ['--token-env', 'MY_TOKEN']],
          ['docdb-git', { GITHUB_TOKEN: WRONG, DOCDB_GIT_TOKEN: TOKEN }, []],
        ];
        for (const [id, env, extra] of cases) {
          const from = server.requests.length;
          const r = await runCli([...flags(kind, id), ...extra], { env: { ...GIT_TEST_ENV, ...env } });
          expect(r.code, `${id}: ${r.stderr}`).toBe(0);
          expect(server.requests.slice(from).some((q) => q.auth === 'ok')).toBe(true);
          expect(server.requests.slice(from).some((q) => q.auth === 'wrong')).toBe(false);
          expect(r.stdout + r.stderr).not.toContain(TOKEN);
        }
      } finally {
        await server.stop();
      }
    },
  );
});
