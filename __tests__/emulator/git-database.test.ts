import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';
import { apiClient, validateResponse } from './openapi-validator.js';
import { rawRequest } from './raw-http.js';

const R = '/repos/acme/data';
let em: EmulatorHandle;
let api: ReturnType<typeof apiClient>;
let mainSha: string;

beforeAll(async () => {
  em = await startEmulator({ treeTruncateLimit: 5 });
  em.state.createRepo('acme/data');
  em.state.addToken('tok-w', { login: 'alice', repos: { 'acme/data': 'write' } });
  mainSha = em.state.commitFiles('acme/data', { files: { 'a/b.txt': 'b\n', 'a/c.txt': 'c\n', 'top.txt': 't\n' } });
  api = apiClient(em.url, 'tok-w');
});
afterAll(() => em.stop());
beforeEach(() => em.clearLog());

async function commitOn(parent: string, files: Record<string, string>, message = 'm'): Promise<string> {
  const tree = await api('POST', `${R}/git/trees`, {
    base_tree: parent,
    tree: Object.entries(files).map(([path, content]) => ({ path, mode: '100644', type: 'blob', content })),
  });
  expect(tree.status).toBe(201);
  const c = await api('POST', `${R}/git/commits`, { message, tree: tree.body.sha, parents: [parent] });
  expect(c.status).toBe(201);
  return c.body.sha;
}

describe('blobs', () => {
  it('creates utf-8 and base64 blobs with the SHA git computes', async () => {
    const text = 'héllo wörld\n';
    const a = await api('POST', `${R}/git/blobs`, { content: text, encoding: 'utf-8' });
    expect(a.status).toBe(201);
    expect(a.headers.get('location')).toBe(a.body.url);
    const dir = mkdtempSync(join(tmpdir(), 'em-blob-'));
    try {
      const file = join(dir, 'f');
      writeFileSync(file, text);
      expect(a.body.sha).toBe(execFileSync('git', ['hash-object', file], { encoding: 'utf8' }).trim());
      const bin = Buffer.from([0, 1, 2, 255, 254, 10]);
      writeFileSync(file, bin);
      const b = await api('POST', `${R}/git/blobs`, { content: bin.toString('base64'), encoding: 'base64' });
      expect(b.body.sha).toBe(execFileSync('git', ['hash-object', file], { encoding: 'utf8' }).trim());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('returns base64 content wrapped every 60 characters, with size and encoding', async () => {
    const bytes = Buffer.alloc(200, 'x');
    const created = await api('POST', `${R}/git/blobs`, { content: bytes.toString('base64'), encoding: 'base64' });
    const got = await api('GET', `${R}/git/blobs/${created.body.sha}`);
    expect(got.status).toBe(200);
    expect(got.body.encoding).toBe('base64');
    expect(got.body.size).toBe(200);
    const lines = (got.body.content as string).split('\n');
    expect(lines.slice(0, -2).every((l) => l.length === 60)).toBe(true);
    expect(lines.at(-1)).toBe('');
    expect(Buffer.from(got.body.content.replace(/\n/g, ''), 'base64').equals(bytes)).toBe(true);
  });

  it('rejects bad blob input with GitHub statuses', async () => {
    expect((await api('POST', `${R}/git/blobs`, {})).body.message).toBe(
      'Invalid request.\n\n"content" wasn\'t supplied.',
    );
    expect((await api('POST', `${R}/git/blobs`, { content: 5 })).status).toBe(422);
    expect((await api('POST', `${R}/git/blobs`, { content: 'x', encoding: 'latin1' })).status).toBe(422);
    expect((await api('POST', `${R}/git/blobs`, { content: '@@@', encoding: 'base64' })).status).toBe(422);
    expect((await api('GET', `${R}/git/blobs/${'0'.repeat(40)}`)).status).toBe(404);
    const bad = await api('GET', `${R}/git/blobs/xyz`);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/exactly 40 characters/);
  });
});

describe('trees', () => {
  it('creates trees from sha and inline content, with base_tree given as a commit SHA', async () => {
    const blob = await api('POST', `${R}/git/blobs`, { content: 'new\n' });
    const t = await api('POST', `${R}/git/trees`, {
      base_tree: mainSha,
      tree: [
        { path: 'a/new.txt', mode: '100644', type: 'blob', sha: blob.body.sha },
        { path: 'x/y/z.txt', mode: '100755', type: 'blob', content: 'z\n' },
        { path: 'top.txt', mode: '100644', type: 'blob', sha: null },
      ],
    });
    expect(t.status).toBe(201);
    expect(t.body.truncated).toBe(false);
    // git order: bytes, so upper case sorts before lower case.
    expect(t.body.tree.map((e: { path: string }) => e.path)).toEqual(['README.md', 'a', 'x']);
    const flat = em.state.repo('acme/data').db.flattenTree(t.body.sha);
    expect(flat.map((e) => `${e.mode} ${e.path}`)).toEqual([
      '100644 README.md',
      '100644 a/b.txt',
      '100644 a/c.txt',
      '100644 a/new.txt',
      '100755 x/y/z.txt',
    ]);
    // base_tree as a tree SHA works the same way.
    const treeSha = em.state.repo('acme/data').db.getCommit(mainSha).tree;
    const t2 = await api('POST', `${R}/git/trees`, {
      base_tree: treeSha,
      tree: [{ path: 'a/b.txt', mode: '100644', sha: null }],
    });
    expect(
      em.state
        .repo('acme/data')
        .db.flattenTree(t2.body.sha)
        .map((e) => e.path),
    ).toEqual(['README.md', 'a/c.txt', 'top.txt']);
  });

  it('computes the tree SHA git computes', async () => {
    const t = await api('POST', `${R}/git/trees`, {
      tree: [
        { path: 'd/e.txt', mode: '100644', content: 'e\n' },
        { path: 'f.txt', mode: '100644', content: 'f\n' },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'em-tree-'));
    try {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
      git('init', '-q');
      execFileSync('mkdir', ['-p', join(dir, 'd')]);
      writeFileSync(join(dir, 'd', 'e.txt'), 'e\n');
      writeFileSync(join(dir, 'f.txt'), 'f\n');
      git('add', '.');
      expect(t.body.sha).toBe(git('write-tree'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 422 for bad entries and keeps serving', async () => {
    const cases: [unknown, RegExp][] = [
      [{ tree: [{ path: 'a.txt', mode: '100000', content: 'x' }] }, /is not one of/],
      [{ tree: [{ path: 'a.txt', mode: '100644', type: 'tree', content: 'x' }] }, /does not match mode/],
      [{ tree: [{ path: 'a.txt', mode: '100644', sha: 'f'.repeat(40) }] }, /tree\.sha f+ is not a valid blob/],
      [{ tree: [{ path: 'a.txt', mode: '100644', sha: 'x'.repeat(40), content: 'y' }] }, /Only one of/],
      [{ tree: [{ path: '../etc/passwd', mode: '100644', content: 'x' }] }, /malformed path component/],
      [{ tree: [{ path: 'a/.git/config', mode: '100644', content: 'x' }] }, /malformed path component/],
      [{ tree: [{ path: 'nul\u0000byte', mode: '100644', content: 'x' }] }, /malformed path component/],
      [{ tree: [{ path: 'a.txt', mode: '100644' }] }, /either tree\.sha or tree\.content/],
      [{ base_tree: mainSha, tree: [{ path: 'missing.txt', mode: '100644', sha: null }] }, /^GitRPC::BadObjectState$/],
      [{ base_tree: 'e'.repeat(40), tree: [] }, /^base_tree is not a valid tree oid$/],
      [{ tree: 'nope' }, /is not an array/],
      [{}, /"tree" wasn't supplied/],
    ];
    for (const [body, msg] of cases) {
      const r = await api('POST', `${R}/git/trees`, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.message).toMatch(msg);
    }
    expect((await api('GET', `${R}/git/ref/heads/main`)).status).toBe(200);
  });

  it('lists recursively with any recursive value, and truncates past the configured limit', async () => {
    const flat = await api('GET', `${R}/git/trees/${mainSha}`);
    expect(flat.body.tree.map((e: { path: string }) => e.path)).toEqual(['README.md', 'a', 'top.txt']);
    expect(flat.body.truncated).toBe(false);
    const rec = await api('GET', `${R}/git/trees/${mainSha}?recursive=0`);
    expect(rec.body.tree.map((e: { path: string }) => e.path)).toEqual([
      'README.md',
      'a',
      'a/b.txt',
      'a/c.txt',
      'top.txt',
    ]);
    expect(rec.body.truncated).toBe(false);
    const blob = rec.body.tree.find((e: { path: string }) => e.path === 'a/b.txt');
    expect(blob).toMatchObject({ type: 'blob', mode: '100644', size: 2 });
    const big = em.state.commitFiles('acme/data', { branch: 'big', files: { 'z1.txt': '1', 'z2.txt': '2' } });
    const trunc = await api('GET', `${R}/git/trees/${big}?recursive=1`);
    expect(trunc.body.truncated).toBe(true);
    expect(trunc.body.tree).toHaveLength(5);
    expect((await api('GET', `${R}/git/trees/${'1'.repeat(40)}`)).status).toBe(404);
  });
});

describe('commits', () => {
  it('creates and reads commits with author, committer, tree and parents', async () => {
    const tree = em.state.repo('acme/data').db.getCommit(mainSha).tree;
    const c = await api('POST', `${R}/git/commits`, {
      message: 'hello\n',
      tree,
      parents: [mainSha],
      author: { name: 'A U Thor', email: 'a@example.com', date: '2024-05-01T12:00:00+02:00' },
    });
    expect(c.status).toBe(201);
    expect(c.body.author).toEqual({ name: 'A U Thor', email: 'a@example.com', date: '2024-05-01T12:00:00+02:00' });
    expect(c.body.committer).toEqual(c.body.author);
    const got = await api('GET', `${R}/git/commits/${c.body.sha}`);
    expect(got.body.tree.sha).toBe(tree);
    expect(got.body.parents.map((p: { sha: string }) => p.sha)).toEqual([mainSha]);
    expect(got.body.message).toBe('hello\n');
    // Same bytes as `git commit-tree` would write.
    const dir = mkdtempSync(join(tmpdir(), 'em-commit-'));
    try {
      await em.exportBareRepo('acme/data', dir);
      const raw = execFileSync('git', ['--git-dir', dir, 'cat-file', 'commit', c.body.sha], { encoding: 'utf8' });
      expect(raw).toBe(
        `tree ${tree}\nparent ${mainSha}\nauthor A U Thor <a@example.com> 1714557600 +0200\ncommitter A U Thor <a@example.com> 1714557600 +0200\n\nhello\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('defaults author to the token user and rejects unknown trees and parents', async () => {
    const tree = em.state.repo('acme/data').db.getCommit(mainSha).tree;
    const c = await api('POST', `${R}/git/commits`, { message: 'x', tree });
    expect(c.body.author.name).toBe('alice');
    expect(c.body.parents).toEqual([]);
    expect((await api('POST', `${R}/git/commits`, { message: 'x', tree: 'a'.repeat(40) })).body.message).toBe(
      'Tree SHA does not exist',
    );
    const p = await api('POST', `${R}/git/commits`, { message: 'x', tree, parents: [tree] });
    expect(p.body.message).toBe('Parent SHA does not exist or is not a commit object');
    expect((await api('POST', `${R}/git/commits`, { tree })).status).toBe(422);
    expect((await api('POST', `${R}/git/commits`, { message: 'x', tree, author: { name: 'n' } })).status).toBe(422);
    expect((await api('GET', `${R}/git/commits/${tree}`)).status).toBe(404);
  });
});

describe('refs', () => {
  it('reads refs exactly (no refs/ prefix in the path) and lists by prefix', async () => {
    const r = await api('GET', `${R}/git/ref/heads/main`);
    expect(r.body).toMatchObject({ ref: 'refs/heads/main', object: { sha: mainSha, type: 'commit' } });
    expect(r.body.url).toBe(`${em.url}${R}/git/refs/heads/main`);
    expect((await api('GET', `${R}/git/ref/heads/mai`)).status).toBe(404);
    expect((await api('GET', `${R}/git/ref/refs/heads/main`)).status).toBe(404);
    const m = await api('GET', `${R}/git/matching-refs/heads/ma`);
    expect(m.body.map((x: { ref: string }) => x.ref)).toEqual(['refs/heads/main']);
    expect((await api('GET', `${R}/git/matching-refs/nothing`)).body).toEqual([]);
  });

  it('creates, fast-forwards, force-updates and deletes refs with GitHub messages', async () => {
    const c1 = await commitOn(mainSha, { 'doc.json': '1' });
    const created = await api('POST', `${R}/git/refs`, { ref: 'refs/docdb/documents', sha: c1 });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${em.url}${R}/git/refs/docdb/documents`);
    expect((await api('POST', `${R}/git/refs`, { ref: 'refs/docdb/documents', sha: c1 })).body.message).toBe(
      'Reference already exists',
    );
    expect((await api('POST', `${R}/git/refs`, { ref: 'refs/x', sha: c1 })).body.message).toMatch(
      /three slash-separated/,
    );
    expect((await api('POST', `${R}/git/refs`, { ref: 'refs/heads/a..b', sha: c1 })).body.message).toBe(
      'refs/heads/a..b is not a valid ref name.',
    );
    expect((await api('POST', `${R}/git/refs`, { ref: 'refs/heads/q', sha: 'd'.repeat(40) })).body.message).toBe(
      'Object does not exist',
    );

    const c2 = await commitOn(c1, { 'doc.json': '2' });
    const ff = await api('PATCH', `${R}/git/refs/docdb/documents`, { sha: c2, force: false });
    expect(ff.status).toBe(200);
    expect(ff.body.object.sha).toBe(c2);
    const sibling = await commitOn(c1, { 'doc.json': 'other' });
    const nff = await api('PATCH', `${R}/git/refs/docdb/documents`, { sha: sibling, force: false });
    expect(nff.status).toBe(422);
    expect(nff.body.message).toBe('Update is not a fast forward');
    expect((await api('PATCH', `${R}/git/refs/docdb/documents`, { sha: sibling })).status).toBe(422);
    expect((await api('PATCH', `${R}/git/refs/docdb/documents`, { sha: sibling, force: true })).body.object.sha).toBe(
      sibling,
    );
    expect((await api('PATCH', `${R}/git/refs/docdb/missing`, { sha: c2 })).body.message).toBe(
      'Reference does not exist',
    );
    expect((await api('PATCH', `${R}/git/refs/docdb/documents`, { sha: c2, force: 'no' })).status).toBe(422);

    expect((await api('DELETE', `${R}/git/refs/docdb/documents`)).status).toBe(204);
    expect((await api('GET', `${R}/git/ref/docdb/documents`)).status).toBe(404);
    expect((await api('DELETE', `${R}/git/refs/docdb/documents`)).body.message).toBe('Reference does not exist');
  });

  it('lets exactly one of two racing non-fast-forward updates win', async () => {
    const base = await commitOn(mainSha, { 'race.txt': '0' });
    await api('POST', `${R}/git/refs`, { ref: 'refs/docdb/race', sha: base });
    const a = await commitOn(base, { 'race.txt': 'a' });
    const b = await commitOn(base, { 'race.txt': 'b' });
    const [ra, rb] = await Promise.all([
      api('PATCH', `${R}/git/refs/docdb/race`, { sha: a, force: false }),
      api('PATCH', `${R}/git/refs/docdb/race`, { sha: b, force: false }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 422]);
    const winner = ra.status === 200 ? a : b;
    expect(em.state.repo('acme/data').db.readRef('refs/docdb/race')).toBe(winner);
    expect((ra.status === 422 ? ra : rb).body.message).toBe('Update is not a fast forward');
  });

  it('rejects path traversal in ref names and keeps serving', async () => {
    // fetch normalises `..` (and `%2e%2e`) client-side, so send the raw paths with node:http.
    const auth = { Authorization: 'token tok-w' };
    for (const path of [
      '/git/ref/heads/../../../etc/passwd',
      '/git/ref/heads/%2e%2e/main',
      '/git/ref/heads/..%2Fmain',
    ]) {
      const r = await rawRequest(em.url, 'GET', `${R}${path}`, undefined, auth);
      expect(r.status, path).toBe(404);
      validateResponse('GET', `${R}${path}`, r.status, r.json);
    }
    const body = JSON.stringify({ sha: mainSha, force: true });
    for (const [method, path] of [
      ['PATCH', '/git/refs/heads/../../main'],
      ['PATCH', '/git/refs/heads/%2e%2e/%2e%2e/main'],
      ['DELETE', '/git/refs/heads/..'],
    ] as const) {
      const r = await rawRequest(em.url, method, `${R}${path}`, method === 'PATCH' ? body : undefined, auth);
      expect(r.status, path).toBe(422);
      expect(r.json.message).toMatch(/is not a valid ref name/);
      validateResponse(method, `${R}${path}`, r.status, r.json);
    }
    expect((await api('POST', `${R}/git/refs`, { ref: 'refs/heads/../../x', sha: mainSha })).status).toBe(422);
    expect(
      em.state
        .repo('acme/data')
        .db.listRefs()
        .every((r) => !r.ref.includes('..')),
    ).toBe(true);
    expect(em.state.repo('acme/data').db.readRef('refs/heads/main')).toBe(mainSha);
    expect((await api('GET', `${R}/git/ref/heads/main`)).status).toBe(200);
  });

  it('serves the legacy GET /git/refs list', async () => {
    const all = await api('GET', `${R}/git/refs/`);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.map((r: { ref: string }) => r.ref)).toContain('refs/heads/main');
    const one = await api('GET', `${R}/git/refs/heads/main`);
    expect(one.body.ref).toBe('refs/heads/main');
    expect((await api('GET', `${R}/git/refs/nope`)).status).toBe(404);
  });
});
