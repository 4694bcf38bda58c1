/**
 * The `repository` source over GraphQL, in-process (library use: runProjections + createOctokit) against
 * the emulator: branch lists past 100 continue with cursors, request counts per batch, and GraphQL's
 * errors (NOT_FOUND, RATE_LIMITED) become docdb's typed errors; shards read and prune only their own. Nothing is
 * committed on failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_INPUT_NAMES } from '../../src/cli/input-flags.js';
import { AuthMissing, NotFound, RateLimited } from '../../src/core/errors.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { runProjections } from '../../src/projection/run/index.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { createOctokit } from '../../src/transport/create-octokit.js';

let em: EmulatorHandle;
const TOKEN = 'ghp_graphql_source';

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'lib', repos: '*' });
  em.state.createRepo('lib/many-branches', { description: 'lots' });
  for (let i = 0; i < 230; i++) em.state.addBranch('lib/many-branches', `b${String(i).padStart(3, '0')}`);
  for (let i = 0; i < 5; i++) em.state.createRepo(`lib/r${i}`);
});
afterAll(async () => {
  await em?.stop();
});

const octokit = (token = TOKEN) =>
  createOctokit({ auth: token, baseUrl: em.url, writeSpacingMs: 0, retryAfterBaseMs: 1, maxRetryAfterSeconds: 0 });

function run(yaml: string, token?: string, perPage?: number) {
  const store = new MemoryRefStore();
  return {
    store,
    result: runProjections({
      spec: parseSpec(yaml, 'docdb.yml'),
      client: octokit(token),
      store,
      apiUrl: em.url,
      ...(perPage ? { perPage } : {}),
    }),
  };
}

describe('repository source over GraphQL', () => {
  it('continues branch lists past 100 with cursors: 231 branches in 3 queries, all in the document', async () => {
    em.clearLog();
    const { store, result } = run(
      'projections:\n  r:\n    source: { type: repository, repositories: [lib/many-branches] }\n',
    );
    const report = await result;
    expect(report.changed).toBe(true);
    expect(em.requests.map((r) => r.operation)).toEqual(['graphql', 'graphql', 'graphql']);
    const doc = JSON.parse(new TextDecoder().decode((await store.get('github/repo/lib/many-branches.json'))!.value));
    expect(doc.data.branches).toHaveLength(231);
    expect(doc.data.description).toBe('lots');
  });

  it('batches listed repositories: perPage 2 → 3 queries for 5 repositories', async () => {
    em.clearLog();
    const names = [0, 1, 2, 3, 4].map((i) => `lib/r${i}`).join(', ');
    const { result } = run(
      `projections:\n  r:\n    source: { type: repository, repositories: [${names}] }\n`,
      TOKEN,
      2,
    );
    expect((await result).keys).toHaveLength(5);
    expect(em.requests.filter((r) => r.operation === 'graphql')).toHaveLength(3);
  });

  it('NOT_FOUND names the repository; nothing is committed', async () => {
    const { store, result } = run(
      'projections:\n  r:\n    source: { type: repository, repositories: [lib/r0, lib/gone] }\n',
    );
    await expect(result).rejects.toThrow(NotFound);
    await expect(
      run('projections:\n  r:\n    source: { type: repository, repositories: [lib/r0, lib/gone] }\n').result,
    ).rejects.toThrow(
      /source repository lib\/gone not found \(GraphQL: Could not resolve to a Repository with the name 'lib\/gone'\.\)/,
    );
    expect(await store.head()).toBeNull();
  });

  it('without a token: AuthMissing that points at the token input or api: rest', async () => {
    const store = new MemoryRefStore();
    const anonymous = createOctokit({ baseUrl: em.url, writeSpacingMs: 0, retryAfterBaseMs: 1 });
    const spec = (api: string) =>
      parseSpec(
        `projections:\n  r:\n    source: { type: repository, api: ${api}, repositories: [lib/r0] }\n`,
        'docdb.yml',
      );
    const err = await runProjections({ spec: spec('graphql'), client: anonymous, store, apiUrl: em.url }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(AuthMissing);
    expect(err.message).toMatch(/GraphQL API needs a token\. Set the "token" input, or "api: rest"/);
    // The CLI's vocabulary: it has no token input (and prints where it looks for one after every AuthMissing).
    const cli = await runProjections({
      spec: spec('graphql'),
      client: anonymous,
      store,
      apiUrl: em.url,
      inputNames: CLI_INPUT_NAMES,
    }).catch((e) => e);
    expect(cli.message).toMatch(/GraphQL API needs a token\. Set a token, or "api: rest"/);
    // REST reads the public repository anonymously.
    expect((await runProjections({ spec: spec('rest'), client: anonymous, store, apiUrl: em.url })).keys).toEqual([
      'github/repo/lib/r0.json',
    ]);
  });

  it('GraphQL errors other than NOT_FOUND/RATE_LIMITED (e.g. a GHES schema without a field) suggest api: rest', async () => {
    const client = {
      request: async () => ({ status: 200, headers: {}, data: {} }),
      graphql: async () => {
        throw Object.assign(new Error('GraphQL errors'), {
          errors: [{ type: 'undefinedField', message: "Field 'visibility' doesn't exist on type 'Repository'" }],
          data: {},
        });
      },
    };
    const spec = parseSpec('projections:\n  r:\n    source: { type: repository, repositories: [o/r] }\n', 'docdb.yml');
    await expect(runProjections({ spec, client, store: new MemoryRefStore(), apiUrl: em.url })).rejects.toThrow(
      /answered with errors: undefinedField: Field 'visibility' doesn't exist on type 'Repository'.*set "api: rest" on the source/,
    );
  });

  it('RATE_LIMITED becomes RateLimited with the reset time', async () => {
    em.state.addToken('ghp_graphql_spent', { login: 'lib', repos: '*', graphqlRateLimit: 1 });
    const ok = run(
      'projections:\n  r:\n    source: { type: repository, repositories: [lib/r1] }\n',
      'ghp_graphql_spent',
    );
    await ok.result;
    const spent = run(
      'projections:\n  r:\n    source: { type: repository, repositories: [lib/r1] }\n',
      'ghp_graphql_spent',
    );
    const err = await spent.result.catch((e) => e);
    expect(err).toBeInstanceOf(RateLimited);
    expect(err.message).toMatch(/GraphQL rate limit exceeded: API rate limit already exceeded/);
    expect(err.reset).toBeGreaterThan(Date.now() / 1000);
    expect(await spent.store.head()).toBeNull();
  });
});

describe('shards in process', () => {
  it('a shard reads only its own named repositories and prunes only within its shard', async () => {
    const store = new MemoryRefStore();
    const names = [0, 1, 2, 3, 4].map((i) => `lib/r${i}`);
    const spec = (list: string[]) =>
      parseSpec(
        `projections:\n  r:\n    source: { type: repository, api: rest, repositories: [${list.join(', ')}] }\n    prune: true\n`,
        'docdb.yml',
      );
    const shard = (index: number, list = names) => {
      em.clearLog();
      return runProjections({
        spec: spec(list),
        client: octokit(),
        store,
        apiUrl: em.url,
        shard: { index, count: 2 },
        tokenIdentity: 'lib-token', // conditional reads on: each shard stores its ETags in its own state file
      });
    };
    const one = await shard(1);
    const readByOne = new Set(em.requests.map((r) => r.path.split('/').slice(0, 4).join('/')));
    const two = await shard(2);
    const readByTwo = new Set(em.requests.map((r) => r.path.split('/').slice(0, 4).join('/')));
    expect([...one.keys, ...two.keys].sort()).toEqual(names.map((n) => `github/repo/${n}.json`));
    expect(one.keys.length).toBeGreaterThan(0);
    expect(two.keys.length).toBeGreaterThan(0);
    // Each shard fetched 2 requests for each of its own repositories and none of the other's.
    for (const k of one.keys) expect(readByTwo.has(`/repos/${k.slice(12, -5)}`)).toBe(false);
    for (const k of two.keys) expect(readByOne.has(`/repos/${k.slice(12, -5)}`)).toBe(false);
    // Shard 1 stops listing every repository: it deletes only its own missing documents.
    const shrunk = await shard(1, [names[0]!]);
    const mine = one.keys.filter((k) => k !== 'github/repo/lib/r0.json');
    expect(shrunk.projections[0]!.removed.sort()).toEqual(mine.sort());
    const left = (await store.list()).entries.map((e) => e.key).filter((k) => !k.startsWith('_docdb/'));
    expect(left.sort()).toEqual(
      [...two.keys, ...(one.keys.includes('github/repo/lib/r0.json') ? ['github/repo/lib/r0.json'] : [])].sort(),
    );
    // Each shard keeps its own state file.
    expect(
      (await store.list()).entries
        .map((e) => e.key)
        .filter((k) => k.startsWith('_docdb/'))
        .sort(),
    ).toEqual(['_docdb/state/r.shard-1-of-2.json', '_docdb/state/r.shard-2-of-2.json']);
  });
});

describe('API base', () => {
  it("without apiUrl, requests go to the Octokit client's own baseUrl (a GHES token never goes to api.github.com)", async () => {
    em.clearLog();
    const store = new MemoryRefStore();
    const report = await runProjections({
      spec: parseSpec('projections:\n  r:\n    source: { type: releases, repositories: [lib/r0] }\n', 'docdb.yml'),
      client: octokit(),
      store,
    });
    expect(report.projections[0]!.items).toBe(0);
    expect(em.requests.map((r) => r.path)).toEqual(['/repos/lib/r0/releases']);
  });
});
