import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fromUtf8 } from '../../src/core/bytes.js';
import { InvalidSpec } from '../../src/core/errors.js';
import type { Change, RefStore, WriteResult } from '../../src/core/refstore.js';
import { runProjections, stateKey } from '../../src/projection/run/index.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { API, fakeGitHub, fakeRepo, issue } from './fake-github.js';

/** Counts commits made through the store. */
function counting(store: MemoryRefStore) {
  const commits: Change[][] = [];
  const wrapped: RefStore = Object.create(store);
  wrapped.commit = async (changes: readonly Change[], options): Promise<WriteResult> => {
    commits.push([...changes]);
    return store.commit(changes, options);
  };
  return { store: wrapped, commits };
}

const SPEC = `projections:
  repos:
    source: { type: repository, api: rest, repositories: [octo/hello, octo/world] }
  issues:
    source: { type: issues, repositories: [octo/hello], state: open }
    prune: true
  releases:
    source: { type: releases, repositories: [octo/hello] }
`;

function world() {
  return fakeGitHub([
    fakeRepo('octo/hello', {
      issues: [issue(1), issue(2), issue(3, { state: 'closed' }), { ...issue(4), pull_request: { url: 'x' } }],
      releases: [
        {
          id: 7,
          tag_name: 'v1.0.0',
          name: 'One',
          draft: false,
          prerelease: false,
          assets: [{ name: 'a.tgz', size: 3, download_count: 9 }],
        },
      ],
    }),
    fakeRepo('octo/world', { default_branch: 'trunk', branches: { trunk: 'c'.repeat(40) } }),
  ]);
}

async function readDoc(store: RefStore, key: string) {
  const got = await store.get(key);
  return got ? JSON.parse(fromUtf8(got.value)) : null;
}

describe('runProjections', () => {
  it('projects every source into one commit with the seed reducer shape', async () => {
    const gh = world();
    const { store, commits } = counting(new MemoryRefStore());
    const spec = parseSpec(SPEC, 'docdb.yml');
    const report = await runProjections({ spec, client: gh.client, store, apiUrl: API, perPage: 1 });
    expect(commits).toHaveLength(1);
    expect(report.changed).toBe(true);
    expect(report.previousVersion).toBeNull();
    expect(report.version).toMatch(/^[0-9a-f]{40}$/);
    expect(report.keys).toEqual([
      'github/issue/octo/hello#1.json',
      'github/issue/octo/hello#2.json',
      'github/release/octo/hello@v1.0.0.json',
      'github/repo/octo/hello.json',
      'github/repo/octo/world.json',
    ]);
    const repo = await readDoc(store, 'github/repo/octo/world.json');
    expect(repo).toEqual({
      namespace: 'github',
      type: 'repo',
      id: 'octo/world',
      data: {
        fullName: 'octo/world',
        defaultBranch: 'trunk',
        description: 'the octo/world repo',
        branches: [{ name: 'refs/heads/trunk', sha: 'c'.repeat(40) }],
      },
    });
    // pull requests listed by the issues endpoint are not issues
    expect(await store.get('github/issue/octo/hello#4.json')).toBeNull();
    const rel = await readDoc(store, 'github/release/octo/hello@v1.0.0.json');
    expect(rel.data.assets).toEqual([{ name: 'a.tgz', size: 3, contentType: null }]);
    // incremental state for issues lives in the section
    const state = await readDoc(store, stateKey('issues'));
    expect(state.watermarks).toEqual({ 'octo/hello': '2024-01-02T00:00:00Z' });
    // perPage 1 → the issues source followed Link pages (open items: #1, #2 and the pull request #4)
    expect(gh.calls.filter((c) => c.route === 'GET /repos/octo/hello/issues').length).toBe(3);
    expect(report.projections.find((p) => p.name === 'repos')!.added).toHaveLength(2);
  });

  it('makes no commit when nothing changed, and goes incremental with the since watermark', async () => {
    const gh = world();
    const { store, commits } = counting(new MemoryRefStore());
    const spec = parseSpec(SPEC, 'docdb.yml');
    const first = await runProjections({ spec, client: gh.client, store, apiUrl: API });
    gh.calls.length = 0;
    const second = await runProjections({ spec, client: gh.client, store, apiUrl: API });
    expect(commits).toHaveLength(1);
    expect(second.changed).toBe(false);
    expect(second.version).toBe(first.version);
    expect(second.keys).toEqual([]);
    // 2 repositories + 1 release + issue #2 (re-read because `since` is inclusive); #1 was not fetched at all
    expect(second.unchanged).toBe(4);
    const issuesCall = gh.calls.find((c) => c.route === 'GET /repos/octo/hello/issues')!;
    expect(issuesCall.params).toMatchObject({ since: '2024-01-02T00:00:00Z', state: 'all' });
    expect(second.projections.find((p) => p.name === 'issues')!.incremental).toBe(true);
  });

  it('incremental prune removes an issue that was closed; full prune removes vanished items', async () => {
    const gh = world();
    const store = new MemoryRefStore();
    const spec = parseSpec(SPEC, 'docdb.yml');
    await runProjections({ spec, client: gh.client, store, apiUrl: API });
    const repo = gh.byName.get('octo/hello')!;
    repo.issues[0] = issue(1, { state: 'closed', updated_at: '2024-02-01T00:00:00Z' });
    repo.issues.push(issue(9, { updated_at: '2024-02-02T00:00:00Z' }));
    const r = await runProjections({ spec, client: gh.client, store, apiUrl: API });
    const p = r.projections.find((x) => x.name === 'issues')!;
    expect(p.incremental).toBe(true);
    expect(p.removed).toEqual(['github/issue/octo/hello#1.json']);
    expect(p.added).toEqual(['github/issue/octo/hello#9.json']);
    // Every skip says why (issue 37 item 15): the closed issues are outside the source's filter.
    expect(p.skipped).toBeGreaterThan(0);
    expect(p.skips).toEqual([
      {
        reason: 'it does not match the source filter (state: open); its document is pruned',
        count: p.skipped,
        keys: expect.arrayContaining(['github/issue/octo/hello#1.json']),
      },
    ]);
    expect(await store.get('github/issue/octo/hello#1.json')).toBeNull();
    // An issue deleted upstream is only noticed by a full run (backfill).
    repo.issues = repo.issues.filter((i) => i.number !== 9);
    const inc = await runProjections({ spec, client: gh.client, store, apiUrl: API });
    expect(inc.keys).toEqual([]);
    const full = await runProjections({ spec, client: gh.client, store, apiUrl: API, mode: 'backfill' });
    expect(full.projections.find((x) => x.name === 'issues')!.removed).toEqual(['github/issue/octo/hello#9.json']);
    expect(full.changed).toBe(true);
  });

  it('without prune, vanished items stay', async () => {
    const gh = world();
    const store = new MemoryRefStore();
    const spec = parseSpec(SPEC, 'docdb.yml');
    await runProjections({ spec, client: gh.client, store, apiUrl: API });
    gh.byName.get('octo/hello')!.releases = [];
    const r = await runProjections({ spec, client: gh.client, store, apiUrl: API });
    expect(r.changed).toBe(false);
    expect(await store.get('github/release/octo/hello@v1.0.0.json')).not.toBeNull();
  });

  it('dry-run reports the diff and writes nothing', async () => {
    const gh = world();
    const { store, commits } = counting(new MemoryRefStore());
    const spec = parseSpec(SPEC, 'docdb.yml');
    const r = await runProjections({ spec, client: gh.client, store, apiUrl: API, mode: 'dry-run' });
    expect(commits).toHaveLength(0);
    expect(r.changed).toBe(false);
    expect(r.version).toBeNull();
    expect(r.keys).toHaveLength(5);
    expect(r.written).toContain(stateKey('issues'));
    expect(await store.head()).toBeNull();
  });

  it('runs only the selected projections and rejects unknown names', async () => {
    const gh = world();
    const store = new MemoryRefStore();
    const spec = parseSpec(SPEC, 'docdb.yml');
    const r = await runProjections({ spec, client: gh.client, store, apiUrl: API, only: ['releases'] });
    expect(r.keys).toEqual(['github/release/octo/hello@v1.0.0.json']);
    await expect(runProjections({ spec, client: gh.client, store, only: ['nope'] })).rejects.toThrow(
      /"nope".*defines repos, issues, releases/,
    );
  });

  it('fails before committing anything when a source repository is unknown', async () => {
    const gh = world();
    const { store, commits } = counting(new MemoryRefStore());
    const spec = parseSpec(
      'projections:\n  a:\n    source: { type: repository, api: rest, repositories: [octo/hello] }\n  b:\n    source: { type: releases, repositories: [octo/missing] }\n',
      'docdb.yml',
    );
    await expect(runProjections({ spec, client: gh.client, store, apiUrl: API })).rejects.toThrow(
      /source repository octo\/missing not found/,
    );
    expect(commits).toHaveLength(0);
  });

  it('rejects two items mapping to one id, and pagination links to another origin', async () => {
    const gh = world();
    const store = new MemoryRefStore();
    const spec = parseSpec(
      'projections:\n  i:\n    source: { type: issues, repositories: [octo/hello] }\n    identity: { id: "{repo}" }\n',
      'docdb.yml',
    );
    const err = await runProjections({ spec, client: gh.client, store, apiUrl: API }).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidSpec);
    expect(err.message).toMatch(/docdb.yml:4: projections.i.identity.id: two items map to the same id "octo\/hello"/);
    const evil = {
      async request() {
        return { status: 200, headers: { link: '<https://evil.example/next>; rel="next"' }, data: [] };
      },
    };
    const spec2 = parseSpec('projections:\n  r:\n    source: { type: releases, repositories: [o/r] }\n', 'd.yml');
    await expect(runProjections({ spec: spec2, client: evil, store, apiUrl: API })).rejects.toThrow(
      /refusing to follow/,
    );
  });

  it('custom reducer modules: skip with null, context, bad return values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docdb-reducer-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(
      join(dir, 'titles.mjs'),
      `export function titles(issue, ctx) {
  if (issue.number === 2) return null;
  return { title: issue.title.toUpperCase(), from: ctx.repository, key: ctx.identity.id, projection: ctx.projection };
}
export default () => 'not an object';
`,
    );
    writeFileSync(join(dir, 'spec.yml'), '');
    const gh = world();
    const store = new MemoryRefStore();
    const spec = parseSpec(
      'projections:\n  t:\n    source: { type: issues, repositories: [octo/hello] }\n    reducer: { module: ./titles.mjs, export: titles }\n',
      join(dir, 'spec.yml'),
    );
    const r = await runProjections({ spec, client: gh.client, store, apiUrl: API });
    expect(r.keys).toEqual(['github/issue/octo/hello#1.json']);
    expect(r.projections[0]!.skipped).toBe(1);
    // …with its reason, naming the reducer, and the document the item would have been (issue 37 item 15).
    expect(r.projections[0]!.skips).toEqual([
      {
        reason: 'the reducer ./titles.mjs (export titles) returned null (its way to skip an item)',
        count: 1,
        keys: ['github/issue/octo/hello#2.json'],
      },
    ]);
    expect((await readDoc(store, 'github/issue/octo/hello#1.json')).data).toEqual({
      title: 'ISSUE 1',
      from: 'octo/hello',
      key: 'octo/hello#1',
      projection: 't',
    });
    const bad = parseSpec(
      'projections:\n  t:\n    source: { type: issues, repositories: [octo/hello] }\n    reducer: { module: ./titles.mjs }\n',
      join(dir, 'spec.yml'),
    );
    await expect(runProjections({ spec: bad, client: gh.client, store, apiUrl: API })).rejects.toThrow(
      /projections.t.reducer returned string .* must return a plain object/,
    );
    const missing = parseSpec(
      'projections:\n  t:\n    source: { type: issues, repositories: [octo/hello] }\n    reducer: { module: ./titles.mjs, export: nope }\n',
      join(dir, 'spec.yml'),
    );
    await expect(runProjections({ spec: missing, client: gh.client, store, apiUrl: API })).rejects.toThrow(
      /no function export "nope"; it exports default, titles/,
    );
    const absent = parseSpec(
      'projections:\n  t:\n    source: { type: issues, repositories: [octo/hello] }\n    reducer: { module: ./gone.js }\n',
      join(dir, 'spec.yml'),
    );
    await expect(runProjections({ spec: absent, client: gh.client, store, apiUrl: API })).rejects.toThrow(
      /spec.yml:4: projections.t.reducer.module: reducer module .\/gone.js not found/,
    );
  });

  it('a changed custom reducer re-projects everything even in incremental mode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docdb-reducer-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const mod = join(dir, 'r.mjs');
    writeFileSync(mod, 'export default (i) => ({ v: 1, n: i.number });\n');
    const gh = world();
    const store = new MemoryRefStore();
    const spec = parseSpec(
      'projections:\n  t:\n    source: { type: issues, repositories: [octo/hello] }\n    reducer: { module: ./r.mjs }\n',
      join(dir, 'spec.yml'),
    );
    await runProjections({ spec, client: gh.client, store, apiUrl: API });
    // A new file name, since Node caches ES modules by URL within one process.
    writeFileSync(join(dir, 'r2.mjs'), 'export default (i) => ({ v: 2, n: i.number });\n');
    const spec2 = parseSpec(
      'projections:\n  t:\n    source: { type: issues, repositories: [octo/hello] }\n    reducer: { module: ./r2.mjs }\n',
      join(dir, 'spec.yml'),
    );
    const r = await runProjections({ spec: spec2, client: gh.client, store, apiUrl: API });
    expect(r.projections[0]!.incremental).toBe(false);
    expect(r.projections[0]!.changed).toHaveLength(2);
  });
  it('pulls: incremental runs stop at the first page older than the watermark', async () => {
    const pull = (n: number, updated: string) => ({
      ...issue(n, { updated_at: updated }),
      base: { ref: 'main' },
      head: { ref: `b${n}`, sha: 'c'.repeat(40) },
    });
    const gh = fakeGitHub([
      fakeRepo('octo/hello', {
        pulls: [pull(1, '2024-01-01T00:00:00Z'), pull(2, '2024-01-02T00:00:00Z'), pull(3, '2024-01-03T00:00:00Z')],
      }),
    ]);
    const store = new MemoryRefStore();
    const spec = parseSpec('projections:\n  p:\n    source: { type: pulls, repositories: [octo/hello] }\n', 'd.yml');
    await runProjections({ spec, client: gh.client, store, apiUrl: API, perPage: 1 });
    expect(gh.calls).toHaveLength(3);
    gh.byName.get('octo/hello')!.pulls.push(pull(4, '2024-02-01T00:00:00Z'));
    gh.calls.length = 0;
    const r = await runProjections({ spec, client: gh.client, store, apiUrl: API, perPage: 1 });
    expect(r.projections[0]!.incremental).toBe(true);
    expect(r.keys).toEqual(['github/pull/octo/hello#4.json']);
    // newest first: #4, #3 (= the watermark, re-read), #2 is older → stop; #1 is never fetched
    expect(gh.calls).toHaveLength(3);
  });

  it('reducer data that is not JSON fails the run naming projection and key, before any commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docdb-reducer-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'nan.mjs'), 'export default () => ({ bad: Number.NaN });\n');
    const gh = world();
    const { store, commits } = counting(new MemoryRefStore());
    const spec = parseSpec(
      'projections:\n  t:\n    source: { type: releases, repositories: [octo/hello] }\n    reducer:\n      module: ./nan.mjs\n',
      join(dir, 'spec.yml'),
    );
    await expect(runProjections({ spec, client: gh.client, store, apiUrl: API })).rejects.toThrow(
      /spec.yml:5: projections.t.reducer returned data for github\/release\/octo\/hello@v1.0.0.json that cannot be stored as JSON/,
    );
    expect(commits).toHaveLength(0);
  });
  it('CommonJS reducer modules work, as module.exports = fn or a named property', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docdb-reducer-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'fn.cjs'), 'module.exports = (r) => ({ tag: r.tag_name, kind: "fn" });\n');
    writeFileSync(join(dir, 'named.cjs'), 'exports.shape = async (r) => ({ tag: r.tag_name, kind: "named" });\n');
    const gh = world();
    for (const [mod, kind] of [
      ['{ module: ./fn.cjs }', 'fn'],
      ['{ module: ./named.cjs, export: shape }', 'named'],
    ] as const) {
      const store = new MemoryRefStore();
      const spec = parseSpec(
        `projections:\n  r:\n    source: { type: releases, repositories: [octo/hello] }\n    reducer: ${mod}\n`,
        join(dir, 'spec.yml'),
      );
      await runProjections({ spec, client: gh.client, store, apiUrl: API });
      expect((await readDoc(store, 'github/release/octo/hello@v1.0.0.json')).data).toEqual({ tag: 'v1.0.0', kind });
    }
  });
});

describe('runProjections after a rebase', () => {
  it('reports what the commit really did when another run already wrote some of the same documents', async () => {
    const gh = world();
    const inner = new MemoryRefStore();
    const spec = parseSpec(SPEC, 'docdb.yml');
    // A competing run commits one identical document between this run's read of the tip and its commit.
    const racing: RefStore = Object.create(inner);
    racing.commit = async (changes: readonly Change[], options): Promise<WriteResult> => {
      const same = changes.find((c) => c.key === 'github/repo/octo/world.json');
      if (same) await inner.commit([same], { message: 'other run' });
      return inner.commit(changes, options);
    };
    const report = await runProjections({ spec, client: gh.client, store: racing, apiUrl: API });
    expect(report.changed).toBe(true);
    expect(report.write!.written).not.toContain('github/repo/octo/world.json');
    expect(report.keys).not.toContain('github/repo/octo/world.json');
    expect(report.keys).toContain('github/repo/octo/hello.json');
    const repos = report.projections.find((p) => p.name === 'repos')!;
    expect(repos.added).toEqual(['github/repo/octo/hello.json']);
    expect(repos.unchanged).toBe(1);
    expect(report.unchanged).toBe(1);
    expect(report.previousVersion).not.toBeNull(); // the competing commit
  });
});
