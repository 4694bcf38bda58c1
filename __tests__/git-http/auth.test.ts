/**
 * The username GitHttpRefStore sends with its token, by host (docs/git-stores.md, "Credentials by
 * host"), checked as a table and end to end against a git server that accepts the token only with
 * the username it expects (as GitLab wants `oauth2`); and a token that may read but not push: 403 on
 * receive-pack, `Forbidden` before anything is pushed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AuthInvalid, Forbidden } from '../../src/core/errors.js';
import { GitHttpRefStore } from '../../src/stores/git-http/index.js';
import { resolveGitHttp } from '../../src/stores/git-http/options.js';
import { defaultUsername } from '../../src/stores/git-http/remote.js';
import { fetchTransport } from '../../src/transport/fetch.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { git, steppingClock } from '../git/helpers.js';
import { type GitHttpFixture, gitHttpFixture, TOKEN } from './helpers.js';

let fx: GitHttpFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

describe('the username sent with the token, by host', () => {
  it.each([
    ['github.com', 'x-access-token'],
    ['GitHub.com', 'x-access-token'],
    ['octo.ghe.com', 'x-access-token'],
    ['gitlab.com', 'oauth2'],
    ['gitlab.example.com', 'oauth2'],
    ['bitbucket.org', 'x-token-auth'],
    ['gitea.example.com', 'docdb'],
    ['codeberg.org', 'docdb'],
    ['ghe.corp.example', 'docdb'], // a GitHub Enterprise Server's name is its own: give `username`
    ['github.com.evil.example', 'docdb'],
    ['127.0.0.1', 'docdb'],
  ])('%s → %s', (host, username) => {
    expect(defaultUsername(host)).toBe(username);
    expect(resolveGitHttp({ remote: `https://${host}/o/data.git`, token: 't' }).username).toBe(username);
  });

  it('the username option overrides the table', () => {
    expect(resolveGitHttp({ remote: 'https://gitlab.com/o/data.git', username: 'gitlab-ci-token' }).username).toBe(
      'gitlab-ci-token',
    );
  });
});

/** A transport that sends every request for the remote's (unreachable) host to the loopback server. */
function toLoopback(server: string): HttpTransport {
  const inner = fetchTransport({ timeoutMs: 30_000 });
  return {
    request: (req) => {
      const u = new URL(req.url);
      return inner.request({ ...req, url: `${server}${u.pathname}${u.search}` });
    },
  };
}

describe('a git server that checks the username', () => {
  it('a gitlab.com remote sends oauth2 (accepted); a Gitea-style host sends docdb (refused) unless told', async () => {
    fx = await gitHttpFixture({ username: 'oauth2' });
    const server = fx.server;
    const open = (remote: string, extra: { username?: string } = {}) =>
      new GitHttpRefStore({ remote, token: TOKEN, transport: toLoopback(server.url), now: steppingClock(), ...extra });

    const from = server.requests.length;
    await open('https://gitlab.com/data.git').put('a.json', '1');
    const authed = server.requests.slice(from);
    expect(authed.length).toBeGreaterThan(0);
    expect(authed.every((r) => r.user === 'oauth2' && r.auth === 'ok')).toBe(true);

    const e = await open('https://gitea.example.com/data.git')
      .get('a.json')
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AuthInvalid);
    expect(server.requests.at(-1)).toMatchObject({ user: 'docdb', auth: 'wrong' });

    const told = await open('https://gitea.example.com/data.git', { username: 'oauth2' }).get('a.json');
    expect(new TextDecoder().decode(told?.value)).toBe('1');
  });
});

describe('a token that may read but not push', () => {
  it('reads; a write is Forbidden (HTTP 403 on receive-pack) and pushes nothing', async () => {
    const READ_ONLY = 'read-only-token-77a1';
    fx = await gitHttpFixture({ readOnlyToken: READ_ONLY });
    const before = (await fx.store().put('a.json', '"written"')).version;
    const reader = fx.store({ token: READ_ONLY });
    expect(new TextDecoder().decode((await reader.get('a.json'))?.value)).toBe('"written"');
    const from = fx.server.requests.length;
    const e = await reader.put('b.json', '"refused"').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Forbidden);
    expect((e as Forbidden).message).toMatch(/refused access \(HTTP 403\)/);
    expect((e as Forbidden).data.status).toBe(403);
    expect(JSON.stringify(e)).not.toContain(READ_ONLY);
    const sent = fx.server.requests.slice(from);
    expect(sent.some((r) => r.url.includes('service=git-receive-pack'))).toBe(true);
    expect(sent.some((r) => r.method === 'POST' && r.url.endsWith('/git-receive-pack'))).toBe(false);
    expect(git(['--git-dir', fx.repoDir, 'rev-parse', 'refs/docdb/documents']).trim()).toBe(before);
  });
});
