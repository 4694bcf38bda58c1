import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_SEED, type EmulatorHandle } from '../../src/emulator/index.js';
import { responseChecks, startEmulator } from './checked-emulator.js';
import { apiClient, checkResponseRecord, validateResponse } from './openapi-validator.js';
import { rawRequest } from './raw-http.js';

let dir: string;
let em: EmulatorHandle | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'em-seed-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await em?.stop();
  em = undefined;
});

const YAML_SEED = `
accounts:
  - login: acme
    type: Organization
repos:
  - name: acme/site
    description: The website
    defaultBranch: trunk
    files:
      index.html: "<h1>hi</h1>\\n"
    branches:
      - name: preview
        files:
          preview.txt: "p\\n"
    commits:
      - branch: refs/docdb/documents
        orphan: true
        files:
          github/repo/acme/site.json: "{}"
    refs:
      refs/heads/stable: trunk
    issues:
      - title: Broken link
        labels: [bug]
    releases:
      - tagName: v1
tokens:
  - token: yaml-token
    login: acme
    rateLimit: 100
`;

describe('seeds', () => {
  it('loads a YAML seed file with repos, branches, refs, issues, releases and tokens', async () => {
    const file = join(dir, 'seed.yaml');
    writeFileSync(file, YAML_SEED);
    em = await startEmulator({ seed: file });
    const api = apiClient(em.url, 'yaml-token');
    const repo = await api('GET', '/repos/acme/site');
    expect(repo.body).toMatchObject({
      default_branch: 'trunk',
      description: 'The website',
      owner: { type: 'Organization' },
    });
    expect(repo.headers.get('x-ratelimit-limit')).toBe('100');
    const refs = await api('GET', '/repos/acme/site/git/matching-refs/');
    expect(refs.body.map((r: { ref: string }) => r.ref)).toEqual([
      'refs/docdb/documents',
      'refs/heads/preview',
      'refs/heads/stable',
      'refs/heads/trunk',
      'refs/tags/v1',
    ]);
    // An orphan section ref holds only its own files, in a root commit.
    const sectionSha = refs.body[0].object.sha;
    expect((await api('GET', `/repos/acme/site/git/commits/${sectionSha}`)).body.parents).toEqual([]);
    const files = await api('GET', `/repos/acme/site/git/trees/${sectionSha}?recursive=1`);
    expect(
      files.body.tree.filter((e: { type: string }) => e.type === 'blob').map((e: { path: string }) => e.path),
    ).toEqual(['github/repo/acme/site.json']);
    const tree = await api('GET', '/repos/acme/site/git/trees/preview?recursive=1');
    expect(tree.body.tree.map((e: { path: string }) => e.path)).toEqual(['README.md', 'index.html', 'preview.txt']);
    expect((await api('GET', '/repos/acme/site/issues')).body[0].title).toBe('Broken link');
    expect((await api('POST', '/repos/acme/site/git/blobs', { content: 'x' })).status).toBe(201);
  });

  it('loads a JSON seed file and reports bad seeds naming the field', async () => {
    const good = join(dir, 'seed.json');
    writeFileSync(
      good,
      JSON.stringify({ repos: [{ name: 'a/b', private: true }], tokens: [{ token: 't', login: 'a' }] }),
    );
    em = await startEmulator({ seed: good });
    expect((await apiClient(em.url)('GET', '/repos/a/b')).status).toBe(404);
    expect((await apiClient(em.url, 't')('GET', '/repos/a/b')).status).toBe(200);

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ repos: [{ name: 'no-slash', private: 'yes' }] }));
    await expect(startEmulator({ seed: bad })).rejects.toThrow(
      /repos\.0\.name: must be "owner\/name"[\s\S]*repos\.0\.private/,
    );
    writeFileSync(bad, '{ not json');
    await expect(startEmulator({ seed: bad })).rejects.toThrow(/cannot parse seed file/);
    await expect(
      startEmulator({ seed: { repos: [{ name: 'a/b', pulls: [{ title: 't', head: 'nope' }] }] } }),
    ).rejects.toThrow(/head branch nope/);
    await expect(startEmulator({ treeTruncateLimit: 0 })).rejects.toThrow(/treeTruncateLimit/);
  });

  it('DEMO_SEED has an org and a user with several repos, branches, issues, pulls and releases', async () => {
    em = await startEmulator({ seed: DEMO_SEED });
    const repos = em.state.listRepos();
    expect(repos.map((r) => r.fullName)).toEqual([
      'octo-org/widgets',
      'octo-org/gadgets',
      'octo-org/secret-plans',
      'octocat/hello-world',
      'octocat/empty',
    ]);
    const widgets = em.state.repo('octo-org/widgets');
    expect(widgets.owner.type).toBe('Organization');
    expect(widgets.db.listRefs('refs/heads/').length).toBe(3);
    expect(widgets.issues.length).toBeGreaterThanOrEqual(3);
    expect(widgets.pulls.length).toBe(2);
    expect(widgets.releases.length).toBe(3);
    // Deterministic: the same seed gives the same SHAs.
    const again = await startEmulator({ seed: DEMO_SEED });
    try {
      expect(again.state.repo('octo-org/widgets').db.readRef('refs/heads/main')).toBe(
        widgets.db.readRef('refs/heads/main'),
      );
    } finally {
      await again.stop();
    }
  });
});

describe('exportBareRepo', () => {
  it('writes a bare repository that git fsck --strict accepts, with the same objects and refs', async () => {
    em = await startEmulator({ seed: DEMO_SEED });
    const api = apiClient(em.url, 'ghp_demo_write');
    const R = '/repos/octo-org/widgets';
    const tip = (await api('GET', `${R}/git/ref/heads/main`)).body.object.sha;
    const tree = await api('POST', `${R}/git/trees`, {
      base_tree: tip,
      tree: [
        { path: 'bin/run.sh', mode: '100755', type: 'blob', content: '#!/bin/sh\necho hi\n' },
        { path: 'link', mode: '120000', type: 'blob', content: 'bin/run.sh' },
        { path: 'docs/deep/nested/file.json', mode: '100644', type: 'blob', content: '{"a":1}\n' },
      ],
    });
    const commit = await api('POST', `${R}/git/commits`, {
      message: 'Add files\n\nWith a body.\n',
      tree: tree.body.sha,
      parents: [tip],
      author: { name: 'Zoë', email: 'zoe@example.com', date: '2024-06-01T08:30:00-05:30' },
    });
    await api('POST', `${R}/git/refs`, { ref: 'refs/docdb/documents', sha: commit.body.sha });

    const bare = join(dir, 'widgets.git');
    await em.exportBareRepo('octo-org/widgets', bare);
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', bare, ...args], { encoding: 'utf8' });
    git('fsck', '--strict', '--no-dangling');
    expect(git('rev-parse', 'refs/docdb/documents').trim()).toBe(commit.body.sha);
    expect(git('rev-parse', 'HEAD').trim()).toBe(tip);
    expect(git('cat-file', '-p', `${commit.body.sha}:bin/run.sh`)).toBe('#!/bin/sh\necho hi\n');
    expect(git('ls-tree', '-r', commit.body.sha, 'bin', 'link')).toMatch(
      /100755 blob [0-9a-f]{40}\tbin\/run\.sh\n120000 blob [0-9a-f]{40}\tlink/,
    );
    expect(git('log', '--format=%an %ad', '--date=iso-strict', '-1', commit.body.sha).trim()).toBe(
      'Zoë 2024-06-01T08:30:00-05:30',
    );
    // History through the API equals git log.
    const apiLog = (await api('GET', `${R}/commits?sha=refs/docdb/documents&per_page=100`)).body.map(
      (c: { sha: string }) => c.sha,
    );
    expect(apiLog).toEqual(git('rev-list', 'refs/docdb/documents').trim().split('\n'));
    const pathLog = (await api('GET', `${R}/commits?sha=develop&path=src/next.ts`)).body.map(
      (c: { sha: string }) => c.sha,
    );
    expect(pathLog).toEqual(git('rev-list', 'refs/heads/develop', '--', 'src/next.ts').trim().split('\n'));
    const refs = git('for-each-ref', '--format=%(refname)').trim().split('\n');
    expect(refs).toEqual(
      em.state
        .repo('octo-org/widgets')
        .db.listRefs()
        .map((r) => r.ref),
    );
  });
});

describe('the OpenAPI validator used by these tests', () => {
  it('rejects bodies that do not match the operation schema', () => {
    const path = '/repos/a/b/git/ref/heads/main';
    expect(() => validateResponse('GET', path, 200, { ref: 'refs/heads/main' })).toThrow(/does not match git\/get-ref/);
    expect(() => validateResponse('GET', path, 404, { message: 'Not Found' })).toThrow(/documentation_url/);
    expect(() =>
      validateResponse('GET', '/repos/a/b/git/blobs/x', 200, {
        sha: 'x',
        url: 'not a url',
        node_id: 'n',
        size: 1,
        content: '',
        encoding: 'base64',
      }),
    ).toThrow();
    expect(() => validateResponse('GET', '/nowhere', 200, {})).toThrow(/no OpenAPI operation/);
  });

  it('checkResponseRecord rejects what the emulator could get wrong on the wire', () => {
    const base = { method: 'GET', path: '/repos/a/b/git/ref/heads/main', status: 200, injectedBody: false };
    const json = { 'Content-Type': 'application/json; charset=utf-8' };
    expect(() => checkResponseRecord({ ...base, headers: json, body: '{"ref":"refs/heads/main"}' })).toThrow(
      /does not match git\/get-ref/,
    );
    expect(() => checkResponseRecord({ ...base, headers: { 'Content-Type': 'application/json' }, body: '{}' })).toThrow(
      /charset=utf-8/,
    );
    expect(() => checkResponseRecord({ ...base, status: 304, headers: json, body: '{}' })).toThrow(/no body/);
    // Bodies a test wrote itself are not the emulator's to answer for.
    expect(() => checkResponseRecord({ ...base, injectedBody: true, headers: json, body: '{"sha": ' })).not.toThrow();
  });

  it('validates every answer of an emulator started here, whatever client sent the request', async () => {
    const seen: string[] = [];
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    em = await startEmulator({
      seed: DEMO_SEED,
      onResponse: (r) => {
        seen.push(`${r.method} ${r.status}${r.fault ? ` ${r.fault}` : ''}`);
        throw new Error('an observer that throws must not change the answer');
      },
    });
    const before = responseChecks.validated;
    const raw = await rawRequest(em.url, 'GET', '/repos/octo-org/widgets/git/ref/heads/main');
    expect(raw.status).toBe(200);
    expect(raw.json.object.sha).toMatch(/^[0-9a-f]{40}$/);
    em.inject({ kind: 'secondary-rate-limit', retryAfter: 7, path: '/repos/octo-org/widgets/git/blobs' });
    const limited = await fetch(`${em.url}/repos/octo-org/widgets/git/blobs`, { method: 'POST', body: '{}' });
    expect(limited.status).toBe(403);
    expect(limited.headers.get('retry-after')).toBe('7');
    const preflight = await fetch(`${em.url}/repos/octo-org/widgets`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    em.inject({ kind: 'malformed-json', path: '/rate_limit' });
    expect((await fetch(`${em.url}/rate_limit`)).status).toBe(200);
    expect(seen).toEqual(['GET 200', 'POST 403 secondary-rate-limit', 'OPTIONS 204', 'GET 200 malformed-json']);
    // The malformed body was written by the test, so three answers were validated, not four.
    expect(responseChecks.validated - before).toBe(3);
    expect(responseChecks.violations).toEqual([]);
    expect(stderr).toHaveBeenCalledTimes(4);
    expect(String(stderr.mock.calls[0]?.[0])).toMatch(/onResponse threw/);
    stderr.mockRestore();
  });
});

describe('docdb emulator (CLI)', () => {
  it('prints the URL, serves requests and stops on SIGINT', async () => {
    const file = join(dir, 'cli-seed.yaml');
    writeFileSync(file, YAML_SEED);
    const child: ChildProcess = spawn(
      join('node_modules', '.bin', 'tsx'),
      ['src/cli/main.ts', 'emulator', '--port', '0', '--seed', file],
      {
        cwd: join(import.meta.dirname, '..', '..'),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const t = setInterval(() => {
          // The last line is printed in the same tick as the SIGINT handler is installed: wait for it, so
          // the whole banner is in and Ctrl-C is handled.
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m && out.includes('press Ctrl-C to stop')) {
            clearInterval(t);
            resolve(m[1] as string);
          }
        }, 50);
        child.on('exit', () => {
          clearInterval(t);
          reject(new Error(`emulator exited early:\n${out}`));
        });
      });
      expect(out).toContain('acme/site');
      // Off by default for the CLI (docs/emulator.md § Secondary rate limits).
      expect(out).toContain('secondary rate limits: off');
      const r = await apiClient(url, 'yaml-token')('GET', '/repos/acme/site/git/ref/heads/trunk');
      expect(r.status).toBe(200);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out).toContain('emulator stopped');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
