/**
 * The emulator's `POST /graphql`: executed with graphql-js against GitHub's own schema
 * (@octokit/graphql-schema). Every query docdb sends is validated against that schema here, and the
 * emulator answers rate limits, NOT_FOUND and GitHub's pagination limits as GitHub does.
 */

import { schema as githubSchemaJson } from '@octokit/graphql-schema';
import { buildClientSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import {
  branchesQuery,
  OWNER_REPOSITORIES_QUERY,
  repositoriesQuery,
} from '../../src/projection/sources/graphql-queries.js';
import type { OpContext } from '../../src/stores/remote-api/client.js';
import { type GraphqlDeps, pathLevels } from '../../src/stores/remote-api/graphql.js';
import { blobsAt, blobsByOid, oidsAt } from '../../src/stores/remote-api/graphql-blobs.js';
import { tipAndFiles } from '../../src/stores/remote-api/tip-files.js';

const TOKEN = 'ghp_demo_write';

/** The GraphQL body a read-path function sends (answered with an empty repository, so it sends one). */
async function sentQuery(
  call: (d: GraphqlDeps, ctx: OpContext) => Promise<unknown>,
): Promise<{ query: string; variables: Record<string, unknown> }> {
  let sent: { query: string; variables: Record<string, unknown> } | undefined;
  const deps: GraphqlDeps = {
    url: 'https://api.github.com/graphql',
    owner: 'octo',
    repo: 'data',
    client: {
      send: async (_ctx, opts) => {
        sent ??= opts.body as { query: string; variables: Record<string, unknown> };
        return { status: 200, headers: {}, body: new Uint8Array(), json: () => ({ data: { repository: {} } }) };
      },
    },
  };
  await call(deps, { operation: 'test', token: 't', tokenId: 't', requests: 0 });
  if (!sent) throw new Error('no query was sent');
  return sent;
}
let em: EmulatorHandle;

async function gql(query: string, variables: Record<string, unknown> = {}, token: string | null = TOKEN) {
  const res = await fetch(`${em.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are untyped JSON
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
});
afterAll(async () => {
  await em?.stop();
});

describe("every query docdb sends is valid against GitHub's schema", () => {
  const schema = buildClientSchema(githubSchemaJson.json as never);
  const queries = {
    'repositories (1)': repositoriesQuery(1),
    'repositories (100)': repositoriesQuery(100),
    'owner repositories': OWNER_REPOSITORIES_QUERY,
    'branches (1)': branchesQuery(1),
    'branches (50)': branchesQuery(50),
  };
  for (const [name, q] of Object.entries(queries)) {
    it(name, () => {
      expect(validate(schema, parse(q)).map((e) => e.message)).toEqual([]);
    });
  }
  // The read path's queries (stores/remote-api/graphql.ts), captured as the store sends them.
  const SHA = 'a'.repeat(40);
  const readQueries: Record<string, (d: GraphqlDeps, ctx: OpContext) => Promise<unknown>> = {
    'path levels (object(expression:) on Tree)': (d, ctx) => pathLevels(d, ctx, SHA, 'github/repo/o/r.json'),
    'blobs by oid (object(oid:) batch)': (d, ctx) => blobsByOid(d, ctx, [SHA, 'b'.repeat(40)]),
    'blobs by path (object(expression:) on Blob)': (d, ctx) => blobsAt(d, ctx, SHA, ['a.json', 'd/b.json']),
    'previous blob SHAs (object(expression:) oid)': (d, ctx) => oidsAt(d, ctx, SHA, ['a.json', 'd/b.json']),
    'tip and files (ref(qualifiedName:) target Commit.file(path:))': (d, ctx) =>
      tipAndFiles(d, ctx, 'refs/docdb/documents', ['a.json', 'd/b.json']),
  };
  for (const [name, call] of Object.entries(readQueries)) {
    it(name, async () => {
      const sent = await sentQuery(call);
      expect(validate(schema, parse(sent.query)).map((e) => e.message)).toEqual([]);
      // Every variable the query declares is given (owner, name and the expressions).
      const declared = [...sent.query.matchAll(/\$(\w+): String!/g)].map((m) => m[1]);
      expect(Object.keys(sent.variables).sort()).toEqual([...new Set(declared)].sort());
    });
  }
  it('the validator catches a field GitHub does not have', () => {
    const bad = repositoriesQuery(1).replace('isArchived', 'isArchivedd');
    expect(
      validate(schema, parse(bad))
        .map((e) => e.message)
        .join(),
    ).toMatch(/isArchivedd/);
  });
});

describe('POST /graphql', () => {
  it("answers docdb's repository query with data shaped by the schema and the points budget", async () => {
    const r = await gql(repositoriesQuery(2), { o0: 'octo-org', n0: 'widgets', o1: 'octocat', n1: 'hello-world' });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const w = r.body.data.r0;
    expect(w).toMatchObject({
      nameWithOwner: 'octo-org/widgets',
      description: 'Widgets for every occasion',
      defaultBranchRef: { name: 'main' },
      isPrivate: false,
      visibility: 'PUBLIC',
      owner: { login: 'octo-org' },
    });
    expect(w.repositoryTopics.nodes.map((n: { topic: { name: string } }) => n.topic.name)).toEqual(['widgets', 'demo']);
    expect(w.refs.nodes.map((n: { name: string }) => n.name)).toEqual(['develop', 'feature/login', 'main']);
    expect(w.refs.nodes[0].target.oid).toBe(em.state.repo('octo-org/widgets').db.readRef('refs/heads/develop'));
    expect(r.body.data.r1.defaultBranchRef.name).toBe('master');
    // 2 refs(first:100) + 2 repositoryTopics(first:20) connections → 4 requests / 100 → 1 point (the minimum).
    expect(r.body.data.rateLimit.cost).toBe(1);
    expect(r.headers.get('x-ratelimit-resource')).toBe('graphql');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBe(r.body.data.rateLimit.remaining);
    // GraphQL points are a separate budget: the REST (core) budget was not charged.
    expect(em.requests.at(-1)?.costsBudget).toBe(false);
  });

  it('NOT_FOUND for a missing or invisible repository, next to the data that resolved', async () => {
    const r = await gql(repositoriesQuery(2), { o0: 'octo-org', n0: 'widgets', o1: 'octo-org', n1: 'nope' });
    expect(r.status).toBe(200);
    expect(r.body.data.r0.name).toBe('widgets');
    expect(r.body.data.r1).toBeNull();
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        type: 'NOT_FOUND',
        path: ['r1'],
        message: "Could not resolve to a Repository with the name 'octo-org/nope'.",
      }),
    ]);
    // A private repository the token cannot read is indistinguishable from a missing one.
    const hidden = await gql(repositoriesQuery(1), { o0: 'octo-org', n0: 'secret-plans' }, 'ghp_demo_read');
    expect(hidden.body.data.r0.name).toBe('secret-plans');
    em.state.addToken('ghp_gql_none', { login: 'nobody', repos: {} });
    const none = await gql(repositoriesQuery(1), { o0: 'octo-org', n0: 'secret-plans' }, 'ghp_gql_none');
    expect(none.body.errors[0].type).toBe('NOT_FOUND');
  });

  it("pages an owner's repositories with cursors and filters", async () => {
    const first = await gql(OWNER_REPOSITORIES_QUERY, { login: 'octo-org', first: 2 });
    const conn = first.body.data.repositoryOwner.repositories;
    expect(conn.totalCount).toBe(3);
    expect(conn.nodes.map((n: { name: string }) => n.name)).toEqual(['gadgets', 'secret-plans']);
    expect(conn.pageInfo.hasNextPage).toBe(true);
    const second = await gql(OWNER_REPOSITORIES_QUERY, { login: 'octo-org', first: 2, after: conn.pageInfo.endCursor });
    expect(second.body.data.repositoryOwner.repositories.nodes.map((n: { name: string }) => n.name)).toEqual([
      'widgets',
    ]);
    const pub = await gql(OWNER_REPOSITORIES_QUERY, { login: 'octo-org', first: 100, privacy: 'PUBLIC' });
    expect(pub.body.data.repositoryOwner.repositories.nodes.map((n: { name: string }) => n.name)).toEqual([
      'gadgets',
      'widgets',
    ]);
    const unknown = await gql(OWNER_REPOSITORIES_QUERY, { login: 'no-such-owner', first: 1 });
    expect(unknown.body).toEqual(expect.objectContaining({ data: expect.objectContaining({ repositoryOwner: null }) }));
  });

  it('continues a branch list past its first page', async () => {
    const full = em.state.repo('octo-org/widgets');
    const all = full.db
      .listRefs('refs/heads/')
      .map((r) => r.ref.slice(11))
      .sort();
    const page1 = await gql(repositoriesQuery(1).replace('first: 100, orderBy', 'first: 2, orderBy'), {
      o0: 'octo-org',
      n0: 'widgets',
    });
    const refs = page1.body.data.r0.refs;
    expect(refs.nodes.map((n: { name: string }) => n.name)).toEqual(all.slice(0, 2));
    const rest = await gql(branchesQuery(1), { o0: 'octo-org', n0: 'widgets', c0: refs.pageInfo.endCursor });
    expect(rest.body.data.r0.refs.nodes.map((n: { name: string }) => n.name)).toEqual(all.slice(2));
    expect(rest.body.data.r0.refs.pageInfo.hasNextPage).toBe(false);
  });

  it('rejects what GitHub rejects: invalid fields, missing or excessive pagination, no token', async () => {
    const invalid = await gql('{ repository(owner: "octo-org", name: "widgets") { nope } }');
    expect(invalid.status).toBe(200);
    expect(invalid.body.errors[0].message).toMatch(/Cannot query field "nope" on type "Repository"/);
    const missing = await gql(
      '{ repository(owner: "octo-org", name: "widgets") { refs(refPrefix: "refs/heads/") { totalCount } } }',
    );
    expect(missing.body.errors[0]).toMatchObject({ type: 'MISSING_PAGINATION_BOUNDARIES' });
    const excessive = await gql(
      '{ repository(owner: "octo-org", name: "widgets") { refs(refPrefix: "refs/heads/", first: 101) { totalCount } } }',
    );
    expect(excessive.body.errors[0].message).toBe(
      'Requesting 101 records on the `refs` connection exceeds the `first` limit of 100 records.',
    );
    const anonymous = await gql('{ rateLimit { remaining } }', {}, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('This endpoint requires you to be authenticated.');
  });

  it('RATE_LIMITED once the points are spent (HTTP 200, remaining 0), without charging REST', async () => {
    em.state.addToken('ghp_gql_tiny', { login: 'octocat', repos: '*', graphqlRateLimit: 2 });
    const q = '{ rateLimit { cost remaining limit } }';
    expect((await gql(q, {}, 'ghp_gql_tiny')).body.data.rateLimit).toEqual({ cost: 1, remaining: 1, limit: 2 });
    expect((await gql(q, {}, 'ghp_gql_tiny')).body.data.rateLimit.remaining).toBe(0);
    const limited = await gql(q, {}, 'ghp_gql_tiny');
    expect(limited.status).toBe(200);
    expect(limited.body.errors).toEqual([
      expect.objectContaining({
        type: 'RATE_LIMITED',
        message: expect.stringMatching(/^API rate limit already exceeded/),
      }),
    ]);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // The REST budget of the same token is untouched.
    const rest = await fetch(`${em.url}/rate_limit`, { headers: { authorization: 'bearer ghp_gql_tiny' } });
    const body = (await rest.json()) as {
      resources: { core: { used: number }; graphql: { used: number; remaining: number } };
    };
    expect(body.resources.core.used).toBe(0);
    expect(body.resources.graphql).toMatchObject({ used: 2, remaining: 0 });
  });
});
