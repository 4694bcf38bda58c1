/**
 * SubprocessGitRefStore credentials over git's smart HTTP (git http-backend behind a loopback server
 * that demands the token): the token reaches git only through GIT_ASKPASS — never an argv, a URL, a
 * log line, an error, a credential helper's store, or what util.inspect shows of the store.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthInvalid, AuthMissing } from '../../src/core/errors.js';
import { SubprocessGitRefStore } from '../../src/stores/git/index.js';
import type { RemoteApiLogEvent } from '../../src/stores/remote-api/index.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, gitWrapper, loggedCalls, subcommand, tempDir } from './helpers.js';
import { type GitHttpServer, startGitHttpServer } from './http-git-server.js';

const TOKEN = 'ghp_SecretToken0123456789abcdefghijklmn';
let tmp: ReturnType<typeof tempDir>;
let server: GitHttpServer;
let remoteDir: string;
let env: NodeJS.ProcessEnv;
let credsFile: string;
const stores: SubprocessGitRefStore[] = [];

beforeEach(async () => {
  tmp = tempDir();
  remoteDir = bareRepo(tmp.dir, 'data.git');
  server = await startGitHttpServer(tmp.dir, TOKEN);
  // A user config whose credential helper would store any credential git approves.
  credsFile = join(tmp.dir, 'stored-credentials');
  const globalConfig = join(tmp.dir, 'gitconfig');
  writeFileSync(globalConfig, `[credential]\n\thelper = store --file ${credsFile}\n`);
  env = { ...GIT_TEST_ENV, GIT_CONFIG_GLOBAL: globalConfig };
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await server.stop();
  tmp.cleanup();
});

function open(options: { token?: string; log: string; events?: RemoteApiLogEvent[] }) {
  const s = new SubprocessGitRefStore({
    remote: `${server.url}/data.git`,
    dir: join(tmp.dir, `cache-${stores.length}.git`),
    env,
    git: gitWrapper(tmp.dir, { log: options.log }),
    retryConcurrentWrites: 1,
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(options.events ? { logger: (e: RemoteApiLogEvent) => options.events!.push(e) } : {}),
  });
  stores.push(s);
  return s;
}

describe('SubprocessGitRefStore credentials', () => {
  it('a token works over https-style auth through GIT_ASKPASS and appears in no argv, URL, log line or store', async () => {
    const log = join(tmp.dir, 'calls.log');
    const events: RemoteApiLogEvent[] = [];
    const store = open({ token: TOKEN, log, events });
    const w = await store.put('docs/a.json', '{"a":1}\n');
    expect(w.changed).toBe(true);
    // A second writer makes the first store fetch before its next read.
    const other = open({ token: TOKEN, log: join(tmp.dir, 'other.log'), events });
    await other.put('docs/b.json', 'b');
    expect(new TextDecoder().decode((await store.get('docs/b.json'))!.value)).toBe('b');
    await store.put('docs/c.json', 'c');
    expect((await store.list()).entries.map((e) => e.key)).toEqual(['docs/a.json', 'docs/b.json', 'docs/c.json']);
    expect((await store.history('docs/a.json')).entries).toHaveLength(1);

    // Authenticated requests did happen, with the token as the password.
    expect(server.requests.some((r) => r.auth === 'ok' && r.user === 'x-access-token')).toBe(true);
    expect(
      server.requests.filter((r) => r.method === 'POST' && r.url.includes('git-receive-pack')).length,
    ).toBeGreaterThan(0);
    const calls = loggedCalls(log);
    expect(calls.map(subcommand)).toEqual(expect.arrayContaining(['fetch', 'push']));
    for (const file of [log, join(tmp.dir, 'other.log')]) expect(readFileSync(file, 'utf8')).not.toContain(TOKEN);
    for (const r of server.requests) expect(r.url).not.toContain(TOKEN);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    // git's credential helper was not asked to store it.
    expect(existsSync(credsFile)).toBe(false);
    fsckStrict(remoteDir);
  });

  it('util.inspect (depth ∞, hidden too) of a used store — its cache store, repository, reader — never shows the token', async () => {
    const store = open({ token: TOKEN, log: join(tmp.dir, 'calls.log') });
    await store.put('a.json', '1');
    expect(new TextDecoder().decode((await store.get('a.json'))?.value)).toBe('1'); // the token is still used
    for (const options of [
      { depth: Number.POSITIVE_INFINITY },
      { depth: Number.POSITIVE_INFINITY, showHidden: true },
    ]) {
      const text = inspect(store, options);
      expect(text).toContain('cat-file'); // the rendering reached the repository's reader process
      expect(text).not.toContain(TOKEN);
    }
  });

  it('a wrong token is AuthInvalid and no error text carries it', async () => {
    const wrong = 'ghp_WrongToken9876543210zyxwvutsrqpo';
    const store = open({ token: wrong, log: join(tmp.dir, 'calls.log') });
    for (const op of [() => store.get('k'), () => store.put('k', 'v'), () => store.head()]) {
      const err = await op().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthInvalid);
      const all = `${(err as Error).message}\n${JSON.stringify(err)}\n${(err as Error).stack}\n${String((err as Error).cause)}`;
      expect(all).not.toContain(wrong);
      expect(all).not.toContain(TOKEN);
    }
    expect(readFileSync(join(tmp.dir, 'calls.log'), 'utf8')).not.toContain(wrong);
  });

  it('no token and no credential helper answer is AuthMissing (git never prompts on a terminal)', async () => {
    writeFileSync(join(tmp.dir, 'gitconfig'), ''); // no helper at all
    const store = open({ log: join(tmp.dir, 'calls.log') });
    const err = await store.get('k').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthMissing);
    expect((err as Error).message).toMatch(/needs credentials/);
  });
});
