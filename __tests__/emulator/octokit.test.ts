/** The emulator from the point of view of the Octokit client the Action uses (baseUrl = emulator URL). */
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, type EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';
import { validateResponse } from './openapi-validator.js';

let em: EmulatorHandle;
let octokit: Octokit;
const repo = { owner: 'octo-org', repo: 'widgets' };

beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
  octokit = new Octokit({ auth: 'ghp_demo_write', baseUrl: em.url });
  // Validate every response Octokit receives.
  octokit.hook.after('request', (response, options) => {
    const url = new URL(options.url as string, em.url);
    validateResponse(
      options.method as string,
      url.pathname,
      response.status,
      response.data === '' ? undefined : response.data,
    );
  });
});
afterAll(() => em.stop());

describe('Octokit against the emulator', () => {
  it('runs the write sequence: blob, tree, commit, create ref, update ref', async () => {
    const main = await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' });
    const blob = await octokit.rest.git.createBlob({ ...repo, content: 'hi', encoding: 'utf-8' });
    const tree = await octokit.rest.git.createTree({
      ...repo,
      base_tree: main.data.object.sha,
      tree: [{ path: 'docs/a.json', mode: '100644', type: 'blob', sha: blob.data.sha }],
    });
    const commit = await octokit.rest.git.createCommit({
      ...repo,
      message: 'docdb',
      tree: tree.data.sha,
      parents: [main.data.object.sha],
    });
    await octokit.rest.git.createRef({ ...repo, ref: 'refs/docdb/documents', sha: commit.data.sha });
    const got = await octokit.rest.git.getRef({ ...repo, ref: 'docdb/documents' });
    expect(got.data.object.sha).toBe(commit.data.sha);
    const c2 = await octokit.rest.git.createCommit({
      ...repo,
      message: 'again',
      tree: tree.data.sha,
      parents: [commit.data.sha],
    });
    const upd = await octokit.rest.git.updateRef({ ...repo, ref: 'docdb/documents', sha: c2.data.sha, force: false });
    expect(upd.data.object.sha).toBe(c2.data.sha);
    await expect(
      octokit.rest.git.updateRef({ ...repo, ref: 'docdb/documents', sha: commit.data.sha, force: false }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('Update is not a fast forward'),
    });
    const rec = await octokit.rest.git.getTree({ ...repo, tree_sha: c2.data.sha, recursive: 'true' });
    expect(rec.data.tree.some((e) => e.path === 'docs/a.json')).toBe(true);
  });

  it('paginates list endpoints by following Link and reads projection sources', async () => {
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, state: 'all', per_page: 2 });
    expect(issues).toHaveLength(5);
    const heads = await octokit.rest.git.listMatchingRefs({ ...repo, ref: 'heads' });
    expect(heads.data.map((r) => r.ref)).toContain('refs/heads/feature/login');
    const r = await octokit.rest.repos.get(repo);
    expect(r.data.default_branch).toBe('main');
    expect(Number(r.headers['x-ratelimit-remaining'])).toBeLessThan(5000);
    const commits = await octokit.paginate(octokit.rest.repos.listCommits, { ...repo, per_page: 1 });
    expect(commits.length).toBeGreaterThanOrEqual(2);
  });

  it('maps errors to RequestError with GitHub status and message', async () => {
    await expect(octokit.rest.git.getRef({ ...repo, ref: 'heads/nope' })).rejects.toMatchObject({ status: 404 });
    const anon = new Octokit({ baseUrl: em.url });
    await expect(anon.rest.git.createBlob({ ...repo, content: 'x' })).rejects.toMatchObject({ status: 401 });
    await expect(anon.rest.repos.get({ owner: 'octo-org', repo: 'secret-plans' })).rejects.toMatchObject({
      status: 404,
    });
  });
});
