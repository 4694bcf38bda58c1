/**
 * A newcomer's steps that used to dead-end (issue 32): a document named in one word and one value of it
 * printed (item 12), errors that name the way out — an unreachable API, a rejected token and where it
 * came from (item 5) — the "did you mean" behind them, and the library's identity with `type` (item 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/cli/suggest.js';
import { InvalidIdentity } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/document-store.js';
import type { Identity } from '../../src/document/identity.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_NewcomerToken0123456789abcdefABCDEF';
const WRONG = 'ghp_NewcomerWrong0123456789abcdefABCDEF';
let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  em.state.createRepo('octo/newcomer');
});
afterAll(async () => {
  await em?.stop();
});

const api = () => ['--repo', 'octo/newcomer', '--api-url', em.url];

describe('a document in one word, one value of it (item 12)', () => {
  it('doc put/get/history/delete take NAMESPACE/TYPE/ID; --data-only and --field print just the value', async () => {
    const env = { GITHUB_TOKEN: TOKEN };
    const cli = (args: string[]) => runCli([...args, ...api()], { env });
    const data = '{"stars":42,"owner":{"login":"octo-org"},"topics":["a","b"],"name":"api"}';
    const put = await cli(['doc', 'put', 'github/repo/octo-org/api', '--data', data]);
    expect(put.code, put.stderr).toBe(0);
    const viaFlags = await cli(['doc', 'get', '--namespace', 'github', '--type', 'repo', '--id', 'octo-org/api']);
    const oneWord = await cli(['doc', 'get', 'github/repo/octo-org/api']);
    expect(oneWord.stdout).toBe(viaFlags.stdout);
    expect(JSON.parse(oneWord.stdout)).toMatchObject({ namespace: 'github', type: 'repo', id: 'octo-org/api' });

    const dataOnly = (await cli(['doc', 'get', 'github/repo/octo-org/api', '--data-only'])).stdout;
    expect(JSON.parse(dataOnly)).toEqual(JSON.parse(data));
    expect(dataOnly).toMatch(/^\{\n {2}"name": "api",\n/); // indented, as the envelope is
    expect((await cli(['doc', 'get', 'github/repo/octo-org/api', '--field', 'data.stars'])).stdout).toBe('42\n');
    // A string prints as it is (no quotes), as `jq -r` would; --json keeps it JSON.
    expect((await cli(['doc', 'get', 'github/repo/octo-org/api', '--field', 'data.owner.login'])).stdout).toBe(
      'octo-org\n',
    );
    expect((await cli(['doc', 'get', 'github/repo/octo-org/api', '--field', 'data.name', '--json'])).stdout).toBe(
      '"api"\n',
    );
    expect((await cli(['doc', 'get', 'github/repo/octo-org/api', '--field', 'data.topics.1'])).stdout).toBe('b\n');
    expect((await cli(['doc', 'get', 'github/repo/octo-org/api', '--field', 'version'])).stdout.trim()).toBe(
      put.stdout.trim(),
    );

    const absent = await cli(['doc', 'get', 'github/repo/octo-org/api', '--field', 'data.forks']);
    expect(absent.code).toBe(3);
    expect(absent.stderr).toContain('--field data.forks: data has no "forks" (its fields: name, owner, stars, topics)');
    const deeper = await cli(['doc', 'get', 'github/repo/octo-org/api', '--field', 'data.stars.x']);
    expect(deeper.stderr).toContain('data.stars has no "x" (its fields: none: it is 42)');

    // The key, .json and all, names the same document (issue 37 item 9: the Action's keys output prints it so);
    // an id that ends in .json and is not there gets "did you mean" the id without it.
    const withSuffix = await cli(['doc', 'get', 'github/repo/octo-org/api.json', '--field', 'data.stars']);
    expect(withSuffix.code).toBe(0);
    expect(withSuffix.stdout).toBe('42\n');
    const byId = await cli(['doc', 'get', '--namespace', 'github', '--type', 'repo', '--id', 'octo-org/api.json']);
    expect(byId.code).toBe(3);
    expect(byId.stderr).toContain(
      '(did you mean github/repo/octo-org/api? Its key is github/repo/octo-org/api.json.json)',
    );
    expect((await cli(['doc', 'history', 'github/repo/octo-org/api'])).stdout).toMatch(/^[0-9a-f]{40} /);
    // An invalid part of the name is the identity's usage error, naming the flag that part stands for.
    const bad = await cli(['doc', 'get', 'github/../x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('docdb doc get: InvalidIdentity: --type: doc_type ".." is invalid');
    const del = await cli(['doc', 'delete', 'github/repo/octo-org/api', '--json']);
    expect(del.json()).toMatchObject({ changed: true, deleted: ['github/repo/octo-org/api.json'] });
  });
});

describe('errors that name the way out (item 5)', () => {
  it('an unreachable API names the URL used, where it came from, --api-url and the emulator', async () => {
    const viaFlag = await runCli(['doc', 'get', 'n/t/i', '--repo', 'o/r', '--api-url', 'http://127.0.0.1:9']);
    expect(viaFlag.code).toBe(1);
    // The store's retries are shown as warnings first; the error is the last line and names the way out.
    expect(viaFlag.stderr).toMatch(/^warning: read ref: no response, retrying in \d+ ms$/m);
    expect(viaFlag.stderr).toMatch(/^docdb doc get: TransportError: .*failed without a response/m);
    expect(viaFlag.stderr).toContain(
      'Is the API URL right? docdb used http://127.0.0.1:9 (from --api-url; set it with --api-url or $GITHUB_API_URL). For a local emulator, start "docdb emulator" and pass the URL it prints to --api-url.',
    );
    const viaEnv = await runCli(['doc', 'list', '--json'], {
      env: { GITHUB_REPOSITORY: 'o/r', GITHUB_API_URL: 'http://127.0.0.1:9' },
    });
    expect((viaEnv.json() as { error: { message: string } }).error.message).toContain(
      'docdb used http://127.0.0.1:9 (from $GITHUB_API_URL;',
    );
  });

  it('a rejected token says where it came from and the order docdb looks in, never the token', async () => {
    for (const [env, flags, from] of [
      [{ GITHUB_TOKEN: WRONG }, [], '$GITHUB_TOKEN'],
      [{ GH_TOKEN: WRONG }, [], '$GH_TOKEN'],
      [{ MY_TOKEN: WRONG, GITHUB_TOKEN: TOKEN }, ['--token-env', 'MY_TOKEN'], '$MY_TOKEN'],
    ] as const) {
      const r = await runCli(['doc', 'get', 'n/t/i', ...api(), ...flags], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/AuthInvalid/);
      expect(r.stderr).toContain(
        `Here the token came from ${from}; docdb takes --token-env NAME, else $GITHUB_TOKEN, else $GH_TOKEN, else "gh auth token".`,
      );
      expect(r.stderr).not.toContain(WRONG);
    }
  });

  it('a good token gets no advice: only errors the advice is about carry it', async () => {
    const r = await runCli(['doc', 'get', 'n/t/missing', ...api()], { env: { GITHUB_TOKEN: TOKEN } });
    expect(r.code).toBe(3);
    expect(r.stderr).not.toContain('token came from');
    expect(r.stderr).not.toContain('--api-url');
  });
});

describe('did you mean', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
    expect(editDistance('history', 'hsitory')).toBe(1);
    expect(editDistance('get', 'gte')).toBe(1);
    expect(editDistance('put', 'puts')).toBe(1);
    expect(editDistance('list', 'lost')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('suggests the closest name within a typo, a name a prefix starts, and nothing for another word', () => {
    expect(closest('--namspace', ['--namespace', '--type'])).toBe('--namespace');
    expect(closest('--ver', ['--version', '--verbose-x'])).toBe('--version');
    expect(closest('frobnicate', ['doc', 'project', 'emulator', 'demo'])).toBeUndefined();
    expect(closest('dco', ['doc', 'demo'])).toBe('doc');
    expect(closest('x', ['doc'])).toBeUndefined();
  });
});

describe('an identity with `type` (item 3)', () => {
  it('get/read/delete/history name doc_type: "an identity calls it doc_type"', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.put({ namespace: 'github', type: 'repo', id: 'octo-org/api', data: 1 });
    const withType = { namespace: 'github', type: 'repo', id: 'octo-org/api' } as unknown as Identity;
    for (const call of [
      () => docs.get(withType),
      () => docs.delete(withType),
      () => docs.history(withType),
      () => docs.getMany([withType]),
    ]) {
      const e = await call().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(InvalidIdentity);
      expect((e as InvalidIdentity).message).toContain('an identity calls it doc_type, not type');
      expect((e as InvalidIdentity).data).toMatchObject({
        field: expect.stringMatching(/doc_type$/),
        rule: 'named-type',
      });
    }
    // Without a type of either name, the old message stands (nothing to hint at).
    const none = await docs.get({ namespace: 'github', id: 'x' } as unknown as Identity).catch((e: Error) => e);
    expect((none as Error).message).toBe('doc_type undefined is invalid: it must be a string, got undefined');
    expect(await docs.get({ namespace: 'github', doc_type: 'repo', id: 'octo-org/api' })).toMatchObject({ data: 1 });
  });
});
