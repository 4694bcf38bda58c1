/**
 * The contents API (files) and the compare endpoint, every answer validated against GitHub's OpenAPI
 * description by the checked emulator and the validating client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase64, utf8 } from '../../src/core/bytes.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';
import { apiClient } from './openapi-validator.js';

const TOKEN = 'ghp_contents_compare_token_0123456789';
let em: EmulatorHandle;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*' });
  em.state.createRepo('octo/files');
  api = apiClient(em.url, TOKEN);
});
afterAll(() => em.stop());

describe('PUT/GET /contents/{path}', () => {
  it('creates (201), reads, and updates (200) a file with one commit each; the sha guards the update', async () => {
    const before = em.state.repo('octo/files').db.readRef('refs/heads/main');
    const put = await api('PUT', '/repos/octo/files/contents/docs/a.json', {
      message: 'add a',
      content: toBase64(utf8('{"a":1}\n')),
    });
    expect(put.status).toBe(201);
    const created = put.body as { content: { sha: string }; commit: { sha: string; parents: { sha: string }[] } };
    expect(created.commit.parents[0]!.sha).toBe(before);
    const got = await api('GET', '/repos/octo/files/contents/docs/a.json');
    expect(got.status).toBe(200);
    expect((got.body as { sha: string }).sha).toBe(created.content.sha);
    const noSha = await api('PUT', '/repos/octo/files/contents/docs/a.json', {
      message: 'x',
      content: toBase64(utf8('2')),
    });
    expect(noSha.status).toBe(422);
    const wrong = await api('PUT', '/repos/octo/files/contents/docs/a.json', {
      message: 'x',
      content: toBase64(utf8('2')),
      sha: before,
    });
    expect(wrong.status).toBe(409);
    const upd = await api('PUT', '/repos/octo/files/contents/docs/a.json', {
      message: 'update a',
      content: toBase64(utf8('2')),
      sha: created.content.sha,
    });
    expect(upd.status).toBe(200);
    expect((upd.body as { commit: { parents: { sha: string }[] } }).commit.parents[0]!.sha).toBe(created.commit.sha);
    const dir = await api('GET', '/repos/octo/files/contents/docs');
    expect(dir.status).toBe(200); // a directory: an array of its entries
    expect((dir.body as { name: string; type: string }[]).map((e) => [e.name, e.type])).toEqual([['a.json', 'file']]);
  });
});

describe('GET /compare/{base}...{head}', () => {
  it('lists the commits ahead and the files changed, oldest commit first', async () => {
    const repo = 'octo/cmp';
    em.state.createRepo(repo);
    const c1 = em.state.commitFiles(repo, { files: { 'x/a.txt': '1', 'y.txt': 'y' } });
    const c2 = em.state.commitFiles(repo, { files: { 'x/a.txt': '2' } });
    const c3 = em.state.commitFiles(repo, { files: { 'y.txt': null, 'z/new.txt': 'n' } });
    const r = await api('GET', `/repos/${repo}/compare/${c1}...${c3}`);
    expect(r.status).toBe(200);
    const b = r.body as {
      status: string;
      ahead_by: number;
      total_commits: number;
      commits: { sha: string; commit: { tree: { sha: string } } }[];
      files: { filename: string; status: string }[];
    };
    expect(b.status).toBe('ahead');
    expect(b.total_commits).toBe(2);
    expect(b.commits.map((c) => c.sha)).toEqual([c2, c3]);
    expect(b.commits[1]!.commit.tree.sha).toBe(em.state.repo(repo).db.getCommit(c3).tree);
    expect(b.files.map((f) => `${f.status} ${f.filename}`)).toEqual([
      'modified x/a.txt',
      'removed y.txt',
      'added z/new.txt',
    ]);
    const back = await api('GET', `/repos/${repo}/compare/${c3}...${c1}`);
    expect((back.body as { status: string }).status).toBe('behind');
    expect((await api('GET', `/repos/${repo}/compare/${c1}...nope`)).status).toBe(404);
  });
});
