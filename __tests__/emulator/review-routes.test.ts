/**
 * The routes a pull-request review needs (issue 39): a single pull request (a fork's too), issue
 * comments, check runs, commit statuses, `GET /user`, token `permissions`, and `pullRequestEvent`. Every
 * answer is validated against GitHub's OpenAPI description (./checked-emulator.ts, ./openapi-validator.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, pullRequestEvent } from '../../src/emulator/index.js';
import { SECONDARY_DOC } from '../../src/emulator/rations.js';
import { startEmulator } from './checked-emulator.js';
import { apiClient } from './openapi-validator.js';

const R = '/repos/acme/data';
const BOT = 'ghs_installation0000000000000000000000';
let em: EmulatorHandle;
let bot: ReturnType<typeof apiClient>;
let pat: ReturnType<typeof apiClient>;
let head: string;
let pr: number;
let forkPr: number;
let forkHead: string;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo('acme/data');
  em.state.addToken(BOT, { login: 'acme', repos: { 'acme/data': 'write' } });
  em.state.addToken('pat', { login: 'alice', repos: { 'acme/data': 'write' } });
  em.state.addToken('forkread', { login: 'acme', repos: { 'acme/data': 'read' }, bot: true });
  em.state.addToken('prs-only', {
    login: 'acme',
    repos: { 'acme/data': 'write' },
    bot: true,
    permissions: { 'pull-requests': 'write', contents: 'read' },
  });
  head = em.state.commitFiles('acme/data', { branch: 'feature', files: { 'spec.yml': 'x: 1\n' } });
  pr = em.state.addPull('acme/data', { title: 'Change the spec', head: 'feature' }).number;
  em.state.createRepo('mallory/data', { fork: true });
  forkHead = em.state.commitFiles('mallory/data', { branch: 'evil', files: { 'spec.yml': 'x: 2\n' } });
  forkPr = em.state.addPull('acme/data', {
    title: 'From a fork',
    head: 'evil',
    headRepo: 'mallory/data',
    user: 'mallory',
  }).number;
  bot = apiClient(em.url, BOT);
  pat = apiClient(em.url, 'pat');
});
afterAll(() => em.stop());

describe('GET /pulls/{n}', () => {
  it('answers the head commit and the head repository: this one, or the fork', async () => {
    const same = await pat('GET', `${R}/pulls/${pr}`);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({
      number: pr,
      state: 'open',
      head: { sha: head, ref: 'feature', repo: { full_name: 'acme/data' } },
      base: { ref: 'main', repo: { full_name: 'acme/data' } },
    });
    const fork = await pat('GET', `${R}/pulls/${forkPr}`);
    expect(fork.body.head).toMatchObject({
      sha: forkHead,
      ref: 'evil',
      label: 'mallory:evil',
      repo: { full_name: 'mallory/data' },
    });
    expect(fork.body.base.repo.full_name).toBe('acme/data');
    expect((await pat('GET', `${R}/pulls/999`)).status).toBe(404);
  });

  it('pullRequestEvent builds the pull_request payload GitHub sends', () => {
    const event = pullRequestEvent(em.state, 'acme/data', forkPr);
    expect(event).toMatchObject({ action: 'synchronize', number: forkPr, repository: { full_name: 'acme/data' } });
    expect(event.pull_request).toMatchObject({
      number: forkPr,
      head: { sha: forkHead, ref: 'evil', repo: { full_name: 'mallory/data' } },
      base: { ref: 'main', repo: { full_name: 'acme/data' } },
    });
    expect(() => pullRequestEvent(em.state, 'acme/data', 999)).toThrow(/no pull request #999/);
  });
});

describe('issue comments', () => {
  it('an installation token writes as github-actions[bot], a personal token as its user; PATCH edits', async () => {
    const a = await bot('POST', `${R}/issues/${pr}/comments`, { body: 'from the bot' });
    expect(a.status).toBe(201);
    expect(a.body.user).toMatchObject({ login: 'github-actions[bot]', type: 'Bot' });
    const b = await pat('POST', `${R}/issues/${pr}/comments`, { body: 'from alice' });
    expect(b.body.user).toMatchObject({ login: 'alice', type: 'User' });
    const edited = await bot('PATCH', `${R}/issues/comments/${a.body.id}`, { body: 'edited' });
    expect(edited.status).toBe(200);
    expect(edited.body.body).toBe('edited');
    expect((await bot('PATCH', `${R}/issues/comments/1`, { body: 'x' })).status).toBe(404);
    expect((await bot('POST', `${R}/issues/999/comments`, { body: 'x' })).status).toBe(404);
  });

  it('a body over 65,536 characters is 422 as GitHub answers it; 65,536 is accepted', async () => {
    const over = await bot('POST', `${R}/issues/${pr}/comments`, { body: 'é'.repeat(65_537) });
    expect(over.status).toBe(422);
    expect(over.body.message).toBe('Validation Failed');
    expect(over.body.errors).toEqual([
      {
        resource: 'IssueComment',
        code: 'unprocessable',
        field: 'data',
        message: 'Body is too long (maximum is 65536 characters)',
      },
    ]);
    expect((await bot('POST', `${R}/issues/${pr}/comments`, { body: 'é'.repeat(65_536) })).status).toBe(201);
    const editOver = await bot('PATCH', `${R}/issues/comments/${over.body.id ?? 0}`, { body: 'x' });
    expect(editOver.status).toBe(404);
  });

  it('lists oldest first in pages of at most 100 with a Link header', async () => {
    em.state.addIssue('acme/data', { title: 'busy' });
    const n = em.state.repo('acme/data').issues.at(-1)?.number as number;
    for (let i = 0; i < 150; i++) em.state.addComment('acme/data', { issueNumber: n, body: `c${i}` });
    const first = await pat('GET', `${R}/issues/${n}/comments?per_page=500`);
    expect(first.body).toHaveLength(100);
    expect(first.body[0].body).toBe('c0');
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await pat('GET', `${R}/issues/${n}/comments?per_page=100&page=2`);
    expect(second.body.map((c: { body: string }) => c.body).at(-1)).toBe('c149');
    expect(second.headers.get('link')).not.toContain('rel="next"');
  });
});

describe('check runs', () => {
  const run = (extra: Record<string, unknown> = {}) => ({
    name: 'docdb: documents',
    head_sha: head,
    status: 'completed',
    conclusion: 'success',
    output: { title: 't', summary: 's' },
    ...extra,
  });
  const annotations = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      path: 'spec.yml',
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: 'failure',
      message: `m${i}`,
    }));

  it('a personal token gets 403 "You must authenticate via a GitHub App."', async () => {
    const r = await pat('POST', `${R}/check-runs`, run());
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('You must authenticate via a GitHub App.');
    expect(em.state.repo('acme/data').checkRuns).toHaveLength(0);
  });

  it('creates, appends annotations on update, lists by ref and name', async () => {
    const created = await bot(
      'POST',
      `${R}/check-runs`,
      run({ output: { title: 't', summary: 's', annotations: annotations(50) } }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      head_sha: head,
      output: { annotations_count: 50 },
    });
    const updated = await bot('PATCH', `${R}/check-runs/${created.body.id}`, {
      output: { summary: 's2', annotations: annotations(10) },
    });
    expect(updated.body.output).toMatchObject({ summary: 's2', title: 't', annotations_count: 60 });
    await bot('POST', `${R}/check-runs`, run({ name: 'other' }));
    const listed = await pat(
      'GET',
      `${R}/commits/${head}/check-runs?check_name=${encodeURIComponent('docdb: documents')}`,
    );
    expect(listed.body.total_count).toBe(1);
    expect(listed.body.check_runs[0].id).toBe(created.body.id);
    expect((await pat('GET', `${R}/commits/feature/check-runs`)).body.total_count).toBe(2);
  });

  it('more than 50 annotations, or a summary over 65,535 bytes, is 422', async () => {
    const many = await bot(
      'POST',
      `${R}/check-runs`,
      run({ output: { title: 't', summary: 's', annotations: annotations(51) } }),
    );
    expect(many.status).toBe(422);
    expect(many.body.message).toBe('Invalid request.\n\nNo more than 50 items are allowed; 51 were supplied.');
    // 32,768 two-byte characters: within the 65,535-character schema, over GitHub's 65,535 BYTES.
    const big = await bot('POST', `${R}/check-runs`, run({ output: { title: 't', summary: 'é'.repeat(32_768) } }));
    expect(big.status).toBe(422);
    expect(big.body.errors).toEqual([
      {
        resource: 'CheckRun',
        code: 'custom',
        field: 'summary',
        message: 'summary exceeds a maximum bytesize of 65535',
      },
    ]);
    const text = await bot(
      'POST',
      `${R}/check-runs`,
      run({ output: { title: 't', summary: 's', text: 'x'.repeat(65_536) } }),
    );
    expect(text.status).toBe(422);
    expect(
      (await bot('POST', `${R}/check-runs`, run({ output: { title: 't', summary: 'x'.repeat(65_535) } }))).status,
    ).toBe(201);
    expect((await bot('POST', `${R}/check-runs`, run({ head_sha: 'f'.repeat(40) }))).status).toBe(422);
  });
});

describe('commit statuses', () => {
  it('creates one; a description over 140 characters is 422', async () => {
    const ok = await pat('POST', `${R}/statuses/${head}`, {
      state: 'success',
      context: 'docdb: documents',
      description: 'd'.repeat(140),
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ state: 'success', context: 'docdb: documents', creator: { login: 'alice' } });
    const long = await pat('POST', `${R}/statuses/${head}`, { state: 'success', description: 'd'.repeat(141) });
    expect(long.status).toBe(422);
    expect(long.body.errors[0].message).toBe('description is too long (maximum is 140 characters)');
    // A fork's head commit is known to the base repository through its pull request.
    expect((await pat('POST', `${R}/statuses/${forkHead}`, { state: 'failure' })).status).toBe(201);
  });
});

describe('token permissions and read-only tokens', () => {
  it('a write without its permission is 403 "Resource not accessible by integration"', async () => {
    const prsOnly = apiClient(em.url, 'prs-only');
    expect((await prsOnly('POST', `${R}/issues/${pr}/comments`, { body: 'ok' })).status).toBe(201);
    const check = await prsOnly('POST', `${R}/check-runs`, run());
    expect(check.status).toBe(403);
    expect(check.body.message).toBe('Resource not accessible by integration');
    const blob = await prsOnly('POST', `${R}/git/blobs`, { content: 'x' });
    expect(blob.body.message).toBe('Resource not accessible by integration');
    expect((await prsOnly('POST', `${R}/statuses/${head}`, { state: 'success' })).status).toBe(403);
    // Reading is still allowed.
    expect((await prsOnly('GET', `${R}/pulls/${pr}`)).status).toBe(200);
  });

  it("a fork pull request's read-only GITHUB_TOKEN may not comment", async () => {
    const ro = apiClient(em.url, 'forkread');
    const r = await ro('POST', `${R}/issues/${forkPr}/comments`, { body: 'x' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Resource not accessible by integration');
  });

  it('a personal token without the permission gets the personal-token wording', async () => {
    em.state.addToken('pat-ro', {
      login: 'alice',
      repos: { 'acme/data': 'write' },
      permissions: { contents: 'write' },
    });
    const r = await apiClient(em.url, 'pat-ro')('POST', `${R}/statuses/${head}`, { state: 'success' });
    expect(r.body.message).toBe('Resource not accessible by personal access token');
  });

  it('a misspelt permission is refused when the token is added', () => {
    expect(() => em.state.addToken('bad', { login: 'x', permissions: { pullrequests: 'write' } as never })).toThrow(
      /permissions.pullrequests is not a scope/,
    );
  });

  const run = () => ({ name: 'n', head_sha: head, output: { title: 't', summary: 's' } });
});

describe('GET /user', () => {
  it("answers a personal token's account; an installation token is not a user (403)", async () => {
    const me = await pat('GET', '/user');
    expect(me.status).toBe(200);
    expect(me.body.login).toBe('alice');
    const b = await bot('GET', '/user');
    expect(b.status).toBe(403);
    expect(b.body.message).toBe('Resource not accessible by integration');
  });
});

describe('the new writes are content-creating requests', () => {
  it('comments, check runs and statuses count against the per-minute content limit', async () => {
    const limited = await startEmulator({ secondaryLimits: { contentPerMinute: 3 } });
    try {
      limited.state.createRepo('acme/data');
      limited.state.addToken(BOT, { login: 'acme' });
      const sha = limited.state.commitFiles('acme/data', { branch: 'f', files: { a: '1' } });
      const n = limited.state.addPull('acme/data', { title: 't', head: 'f' }).number;
      const call = apiClient(limited.url, BOT);
      expect((await call('POST', `${R}/issues/${n}/comments`, { body: 'a' })).status).toBe(201);
      expect((await call('POST', `${R}/check-runs`, { name: 'c', head_sha: sha })).status).toBe(201);
      expect((await call('POST', `${R}/statuses/${sha}`, { state: 'success' })).status).toBe(201);
      const refused = await call('POST', `${R}/issues/${n}/comments`, { body: 'b' });
      expect(refused.status).toBe(403);
      expect(refused.body.documentation_url).toBe(SECONDARY_DOC);
      expect(refused.body.message).toMatch(/temporarily blocked from content creation/);
    } finally {
      await limited.stop();
    }
  });
});

describe('seeds and the other write paths', () => {
  it('a seed declares a fork pull request and a token with permissions', async () => {
    const seeded = await startEmulator({
      seed: {
        repos: [
          { name: 'mallory/data', fork: true, branches: [{ name: 'evil', files: { 'a.txt': 'x' } }] },
          { name: 'acme/data', pulls: [{ title: 'From a fork', head: 'evil', headRepo: 'mallory/data' }] },
        ],
        tokens: [{ token: 'ghs_seeded', login: 'acme', permissions: { checks: 'write' } }],
      },
    });
    try {
      const call = apiClient(seeded.url, 'ghs_seeded');
      const pull = await call('GET', `${R}/pulls/1`);
      expect(pull.body.head.repo.full_name).toBe('mallory/data');
      expect((await call('GET', `${R}/pulls?head=mallory:evil`)).body).toHaveLength(1);
      expect((await call('GET', `${R}/pulls?head=acme:evil`)).body).toHaveLength(0);
      expect((await call('POST', `${R}/issues/1/comments`, { body: 'x' })).status).toBe(403);
    } finally {
      await seeded.stop();
    }
  });

  it('the bot account that wrote a comment is no GraphQL RepositoryOwner', async () => {
    await bot('POST', `${R}/issues/${pr}/comments`, { body: 'makes the bot account' });
    expect(em.state.findAccount('github-actions[bot]')?.type).toBe('Bot');
    const r = await pat('POST', '/graphql', {
      query: 'query { repositoryOwner(login: "github-actions[bot]") { login } }',
    });
    expect(r.body).toEqual({ data: { repositoryOwner: null } });
  });

  it('GraphQL updateRefs also needs contents: write', async () => {
    em.state.addToken('ghs_nocontents', { login: 'acme', permissions: { 'pull-requests': 'write' } });
    const repoId = (await pat('GET', R)).body.node_id;
    const r = await apiClient(em.url, 'ghs_nocontents')('POST', '/graphql', {
      query: 'mutation($i: UpdateRefsInput!) { updateRefs(input: $i) { clientMutationId } }',
      variables: { i: { repositoryId: repoId, refUpdates: [{ name: 'refs/heads/x', afterOid: head, force: true }] } },
    });
    expect(r.body.errors?.[0]?.message).toMatch(/Resource not accessible by integration/);
    expect(em.state.repo('acme/data').db.readRef('refs/heads/x')).toBeUndefined();
  });
});
