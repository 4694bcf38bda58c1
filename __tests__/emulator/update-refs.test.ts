/**
 * The emulator's `updateRefs` mutation (GitHub's GraphQL schema since 2024-04): several refs atomically,
 * `beforeOid` compared or nothing moves, the zero OID as "must be absent" / "delete", `force` for a
 * non-fast-forward update; the mutation is validated against GitHub's schema like every query.
 */
import { schema as githubSchemaJson } from '@octokit/graphql-schema';
import { buildClientSchema, parse, validate } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { UPDATE_REFS_MUTATION } from '../../src/stores/remote-api/update-refs.js';

const ZERO = '0'.repeat(40);
const REPO = 'octo/data';
let em: EmulatorHandle;

async function start(options: { graphqlUpdateRefs?: boolean } = {}) {
  em = await startEmulator(options);
  em.state.createRepo(REPO);
  em.state.addToken('w', { login: 'octo', repos: '*' });
  em.state.addToken('r', { login: 'reader', repos: { [REPO]: 'read' } });
  const a = em.state.commitFiles(REPO, { branch: 'refs/docdb/a', files: { 'x.json': '1' }, orphan: true });
  const a2 = em.state.commitFiles(REPO, { branch: 'refs/docdb/a', files: { 'x.json': '2' } });
  const b = em.state.commitFiles(REPO, { branch: 'refs/docdb/b', files: { 'y.json': '1' }, orphan: true });
  const repositoryId = (await gql('query { repository(owner: "octo", name: "data") { id } }')).body.data.repository.id;
  return { a, a2, b, repositoryId: repositoryId as string };
}
afterEach(async () => {
  await em?.stop();
});

async function gql(query: string, variables: Record<string, unknown> = {}, token = 'w') {
  const res = await fetch(`${em.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are untyped JSON
  return { status: res.status, body: (await res.json()) as any };
}

const move = (repositoryId: string, refUpdates: object[], token = 'w') =>
  gql(UPDATE_REFS_MUTATION, { input: { repositoryId, refUpdates } }, token);
const tip = (ref: string) => em.state.repo(REPO).db.readRef(ref) ?? null;

describe('updateRefs', () => {
  it("docdb's mutation is valid against GitHub's schema (and the validator sees a misspelt one)", () => {
    const schema = buildClientSchema(githubSchemaJson.json as never);
    expect(validate(schema, parse(UPDATE_REFS_MUTATION)).map((e) => e.message)).toEqual([]);
    const bad = UPDATE_REFS_MUTATION.replace('updateRefs', 'updateRefz');
    expect(validate(schema, parse(bad)).length).toBeGreaterThan(0);
  });

  it('moves several refs at once when every beforeOid matches, forced past a non-fast-forward', async () => {
    const { a, a2, b, repositoryId } = await start();
    const r = await move(repositoryId, [
      { name: 'refs/docdb/a', beforeOid: a2, afterOid: b, force: true },
      { name: 'refs/docdb/b', beforeOid: b, afterOid: a, force: true },
    ]);
    expect(r.body).toEqual({ data: { updateRefs: { clientMutationId: null } } });
    expect([tip('refs/docdb/a'), tip('refs/docdb/b')]).toEqual([b, a]);
  });

  it('moves nothing when one beforeOid is stale (STALE_DATA), even if the other matches', async () => {
    const { a, a2, b, repositoryId } = await start();
    const r = await move(repositoryId, [
      { name: 'refs/docdb/b', beforeOid: b, afterOid: a, force: true },
      { name: 'refs/docdb/a', beforeOid: a, afterOid: b, force: true }, // a moved on to a2
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ updateRefs: null });
    expect(r.body.errors[0].type).toBe('STALE_DATA');
    expect(r.body.errors[0].message).toContain(a2);
    expect([tip('refs/docdb/a'), tip('refs/docdb/b')]).toEqual([a2, b]);
  });

  it('without force, a non-fast-forward update is refused (UNPROCESSABLE) and nothing moves', async () => {
    const { a, a2, repositoryId } = await start();
    const r = await move(repositoryId, [{ name: 'refs/docdb/a', beforeOid: a2, afterOid: a }]);
    expect(r.body.errors[0]).toMatchObject({ type: 'UNPROCESSABLE' });
    expect(r.body.errors[0].message).toMatch(/not a fast forward/);
    expect(tip('refs/docdb/a')).toBe(a2);
  });

  it('the zero OID: as beforeOid the ref must be absent, as afterOid the ref is deleted', async () => {
    const { a, b, repositoryId } = await start();
    const exists = await move(repositoryId, [{ name: 'refs/docdb/a', beforeOid: ZERO, afterOid: b }]);
    expect(exists.body.errors[0].type).toBe('STALE_DATA');
    const created = await move(repositoryId, [{ name: 'refs/docdb/new', beforeOid: ZERO, afterOid: a }]);
    expect(created.body.errors).toBeUndefined();
    expect(tip('refs/docdb/new')).toBe(a);
    const deleted = await move(repositoryId, [{ name: 'refs/docdb/b', beforeOid: b, afterOid: ZERO }]);
    expect(deleted.body.errors).toBeUndefined();
    expect(tip('refs/docdb/b')).toBeNull();
  });

  it('refuses a token without write access (FORBIDDEN), an unknown repository id and a non-commit', async () => {
    const { a, a2, repositoryId } = await start();
    const forbidden = await move(
      repositoryId,
      [{ name: 'refs/docdb/a', beforeOid: a2, afterOid: a, force: true }],
      'r',
    );
    expect(forbidden.body.errors[0].type).toBe('FORBIDDEN');
    const unknown = await move('R_nope', [{ name: 'refs/docdb/a', afterOid: a }]);
    expect(unknown.body.errors[0].type).toBe('NOT_FOUND');
    const tree = em.state.repo(REPO).db.getCommit(a).tree;
    const notCommit = await move(repositoryId, [{ name: 'refs/docdb/a', afterOid: tree, force: true }]);
    expect(notCommit.body.errors[0].message).toMatch(/not a commit/);
    expect(tip('refs/docdb/a')).toBe(a2);
  });

  it('a host without the mutation answers as its schema would: undefinedField, nothing moves', async () => {
    const { a, a2, repositoryId } = await start({ graphqlUpdateRefs: false });
    const r = await move(repositoryId, [{ name: 'refs/docdb/a', beforeOid: a2, afterOid: a, force: true }]);
    expect(r.body.errors[0].extensions).toMatchObject({ code: 'undefinedField', fieldName: 'updateRefs' });
    expect(tip('refs/docdb/a')).toBe(a2);
  });
});
