/**
 * End-to-end: the BUILT dist/index.js, run as a runner runs it, against the emulator seeded with
 * DEMO_SEED (several repositories, issues, pulls, releases). Each test writes its own section so they
 * stay independent. (`npm run check:dist` / check-dist.test.ts prove dist/ matches src/.)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromUtf8 } from '../../src/core/bytes.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { DIST, runDist, workspace } from './run-dist.js';

const TARGET = 'octo-org/widgets';
const WRITE = 'ghp_demo_write';
let em: EmulatorHandle;

const REPOS_SPEC = (repos: string[], prune = true) => `projections:
  repos:
    source: { type: repository, repositories: [${repos.join(', ')}] }
    identity: { namespace: github, type: repo, id: "{owner}/{name}" }
    reducer: repository
    prune: ${prune}
`;

const FULL_SPEC = `projections:
  repos:
    source: { type: repository, repositories: [octo-org/widgets, octo-org/gadgets, octocat/hello-world] }
  issues:
    source: { type: issues, repositories: [octo-org/widgets, octo-org/gadgets], state: all }
    prune: true
  releases:
    source: { type: releases, repositories: [octo-org/widgets, octo-org/gadgets] }
`;

function tree(section: string, repo = TARGET, root = 'docdb'): Map<string, string> {
  const db = em.state.repo(repo).db;
  const tip = db.readRef(`refs/${root}/${section}`);
  const out = new Map<string, string>();
  if (!tip) return out;
  for (const e of db.flattenTree(db.getCommit(tip).tree)) {
    if (e.type === 'blob') out.set(e.path, fromUtf8(db.getBlob(e.sha)));
  }
  return out;
}

/** Write requests (a GraphQL query is a POST, but a read). */
const writes = () =>
  em.requests.filter(
    (r) => r.method !== 'GET' && r.method !== 'HEAD' && r.method !== 'OPTIONS' && r.path !== '/graphql',
  );

function inputs(section: string, extra: Record<string, string> = {}): Record<string, string> {
  return { token: WRITE, 'api-url': em.url, repository: TARGET, section, ...extra };
}

beforeAll(async () => {
  if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run "npm run build:action"');
  em = await startEmulator({ seed: DEMO_SEED });
});
afterAll(async () => {
  await em?.stop();
});

describe('dist/index.js end to end', () => {
  it('projects, commits once, sets outputs and the summary; a second identical run makes no commit', async () => {
    const cwd = workspace({ '.github/docdb.yml': FULL_SPEC });
    em.clearLog();
    const first = await runDist(inputs('e2e-full'), { cwd });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const o = first.outputs;
    expect(o.changed).toBe('true');
    expect(o['previous-version']).toBe('');
    expect(o.version).toMatch(/^[0-9a-f]{40}$/);
    const keys = JSON.parse(o.keys!) as string[];
    expect(keys).toContain('github/repo/octo-org/widgets.json');
    expect(keys).toContain('github/repo/octocat/hello-world.json');
    expect(keys).toContain('github/release/octo-org/gadgets@v0.1.0.json');
    expect(keys.some((k) => k.startsWith('github/issue/octo-org/widgets#'))).toBe(true);
    expect(Number(o.written)).toBe(keys.length);
    expect(o.deleted).toBe('0');
    expect(Number(o.requests)).toBe(em.requests.length);
    expect(Number(o['rate-limit-remaining'])).toBeGreaterThan(0);
    expect(o['rate-limit-reset']).toMatch(/^\d{4}-\d\d-\d\dT/);
    // One commit: create tree (inline content, no blob requests) + create commit + create ref.
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /repos/${TARGET}/git/trees`,
      `POST /repos/${TARGET}/git/commits`,
      `POST /repos/${TARGET}/git/refs`,
    ]);
    // The committed tree holds exactly the documents plus the incremental state.
    const files = tree('e2e-full');
    expect([...files.keys()].filter((k) => !k.startsWith('_docdb/')).sort()).toEqual([...keys].sort());
    // The incremental state of issues, and the ETags of the releases pages (conditional reads).
    expect([...files.keys()].filter((k) => k.startsWith('_docdb/'))).toEqual([
      '_docdb/state/issues.json',
      '_docdb/state/releases.json',
    ]);
    const widgets = JSON.parse(files.get('github/repo/octo-org/widgets.json')!);
    expect(widgets.data.fullName).toBe('octo-org/widgets');
    expect(widgets.data.defaultBranch).toBe('main');
    expect(widgets.data.branches.map((b: { name: string }) => b.name)).toEqual(
      expect.arrayContaining(['refs/heads/main', 'refs/heads/develop', 'refs/heads/feature/login']),
    );
    expect(widgets.data.branches[0].sha).toMatch(/^[0-9a-f]{40}$/);
    // Summary table and log
    expect(first.summary).toContain('| Projection | Source | Added | Changed | Removed | Unchanged | Skipped |');
    expect(first.summary).toMatch(/\| repos \| repository \| 3 \| 0 \| 0 \| 0 \| 0 \|/);
    expect(first.summary).toContain(`https://github.example/${TARGET}/commit/${o.version}`);
    expect(first.summary).toMatch(/rate limit left: \d+\/5000/);
    // The token never reaches the log, apart from the ::add-mask:: command that tells the runner to hide it.
    expect(first.stdout.replace(`::add-mask::${WRITE}`, '')).not.toContain(WRITE);

    em.clearLog();
    const second = await runDist(inputs('e2e-full'), { cwd });
    expect(second.code, second.stdout).toBe(0);
    expect(second.outputs.changed).toBe('false');
    expect(second.outputs.version).toBe(o.version);
    expect(second.outputs.keys).toBe('[]');
    expect(second.outputs.written).toBe('0');
    expect(writes()).toEqual([]);
    expect(second.stdout).toContain('no commit, no write request');
    expect(second.summary).toContain('No changes: no commit, no write request.');
    expect(second.summary).toMatch(/issues \(incremental\)/);
    // The read budget of a no-change run: section tip (ref, commit, recursive tree), ONE GraphQL query for
    // the three repositories, the one state file, 1 per list page — 3 + 1 + 1 + 2 + 2.
    expect(em.requests.map((r) => r.operation)).toEqual([
      'git/get-ref',
      'git/get-commit',
      'git/get-tree',
      'graphql',
      'git/get-blob', // _docdb/state/issues.json, read when the issues projection starts
      'issues/list-for-repo',
      'issues/list-for-repo',
      'git/get-blob', // _docdb/state/releases.json (the releases pages' ETags)
      'repos/list-releases',
      'repos/list-releases',
    ]);
    // Same token as the first run: the releases pages answer 304 Not Modified and cost no budget.
    const releases = em.requests.filter((r) => r.operation === 'repos/list-releases');
    expect(releases.map((r) => [r.status, r.costsBudget])).toEqual([
      [304, false],
      [304, false],
    ]);
    expect(second.outputs.requests).toBe('10');
    const issueQueries = em.requests.filter((r) => r.operation === 'issues/list-for-repo').map((r) => r.query);
    expect(issueQueries.every((q) => /(^|&)since=/.test(q))).toBe(true);

    // mode: backfill ignores the watermark (no `since`), re-reads every page, still commits nothing new.
    em.clearLog();
    const backfill = await runDist(inputs('e2e-full', { mode: 'backfill' }), { cwd });
    expect(backfill.code, backfill.stdout).toBe(0);
    expect(backfill.outputs.changed).toBe('false');
    expect(Number(backfill.outputs.unchanged)).toBe(keys.length);
    expect(writes()).toEqual([]);
    const backfillIssues = em.requests.filter((r) => r.operation === 'issues/list-for-repo').map((r) => r.query);
    expect(backfillIssues).toHaveLength(2);
    expect(backfillIssues.some((q) => /(^|&)since=/.test(q))).toBe(false);
    expect(backfill.stdout).toMatch(/\[issues\] issues of octo-org\/widgets, octo-org\/gadgets \(backfill\)/);
    expect(backfill.stdout).toMatch(/\[issues\] {3}octo-org\/widgets page 1: \d+ item\(s\)/);
    expect(backfill.summary).toMatch(/### docdb backfill:/);
    expect(backfill.summary).not.toMatch(/\(incremental\)/);
  });

  it('N documents cost the same write requests as 1; prune deletes in the same kind of single commit', async () => {
    for (let i = 0; i < 110; i++) {
      em.state.addIssue('octo-org/gadgets', {
        title: `bulk ${i}`,
        createdAt: `2024-05-01T${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
      });
    }
    const spec =
      'projections:\n  bulk:\n    source: { type: issues, repositories: [octo-org/gadgets] }\n    prune: true\n';
    const cwd = workspace({ '.github/docdb.yml': spec });
    em.clearLog();
    const r = await runDist(inputs('e2e-bulk'), { cwd });
    expect(r.code, r.stdout).toBe(0);
    expect(Number(r.outputs.written)).toBe(111); // 110 + the seed's open issue
    expect(writes()).toHaveLength(3);
    // 111 issues at per_page=100: two pages, following the Link header; the log shows progress per page
    expect(r.stdout).toMatch(/\[bulk\] {3}octo-org\/gadgets page 1: 100 item\(s\), 100 so far/);
    expect(r.stdout).toMatch(/\[bulk\] {3}octo-org\/gadgets page 2: 11 item\(s\), 111 so far/);
    expect(em.requests.filter((q) => q.path === '/repos/octo-org/gadgets/issues')).toHaveLength(2);
    // The summary lists at most 100 keys (GitHub caps a step summary at 1 MiB); the output has them all.
    expect(r.summary).toContain('<details><summary>111 changed document key(s)</summary>');
    expect(r.summary.match(/^- <code>github\/issue\//gm)).toHaveLength(100);
    expect(r.summary).toContain('- … and 11 more');
    expect(JSON.parse(r.outputs.keys!)).toHaveLength(111);

    // prune: repos projection over two repositories, then one
    const cwd2 = workspace({ '.github/docdb.yml': REPOS_SPEC(['octo-org/widgets', 'octo-org/gadgets']) });
    const a = await runDist(inputs('e2e-prune'), { cwd: cwd2 });
    expect(a.outputs.written).toBe('2');
    writeFileSync(join(cwd2, '.github/docdb.yml'), REPOS_SPEC(['octo-org/widgets']));
    em.clearLog();
    const b = await runDist(inputs('e2e-prune'), { cwd: cwd2 });
    expect(b.code, b.stdout).toBe(0);
    expect(b.outputs.deleted).toBe('1');
    expect(JSON.parse(b.outputs.keys!)).toEqual(['github/repo/octo-org/gadgets.json']);
    expect(b.outputs['previous-version']).toBe(a.outputs.version);
    expect([...tree('e2e-prune').keys()]).toEqual(['github/repo/octo-org/widgets.json']);
    expect(writes().map((w) => w.method)).toEqual(['POST', 'POST', 'PATCH']);
    expect(b.summary).toMatch(/\| repos \| repository \| 0 \| 0 \| 1 \| 1 \| 0 \|/);
  });

  it('two concurrent runs writing different projections both land', async () => {
    // A separate emulator with latency, so the two runs' read-modify-write windows overlap.
    const slow = await startEmulator({ seed: DEMO_SEED, latencyMs: 25 });
    try {
      const spec = `projections:
  base:
    source: { type: repository, repositories: [octocat/hello-world] }
    identity: { type: base }
  repos:
    source: { type: repository, repositories: [octo-org/widgets, octo-org/gadgets] }
  releases:
    source: { type: releases, repositories: [octo-org/widgets] }
`;
      const cwd = workspace({ '.github/docdb.yml': spec });
      const at = (extra: Record<string, string>) => ({ ...inputs('e2e-race', extra), 'api-url': slow.url });
      // The ref exists first, so both runs update (PATCH) the same ref.
      const seed = await runDist(at({ projections: 'base' }), { cwd });
      expect(seed.outputs.changed).toBe('true');
      const [a, b] = await Promise.all([
        runDist(at({ projections: 'repos', 'commit-message': 'run A' }), { cwd }),
        runDist(at({ projections: 'releases', 'commit-message': 'run B' }), { cwd }),
      ]);
      expect(a.code, a.stdout).toBe(0);
      expect(b.code, b.stdout).toBe(0);
      expect(a.outputs.changed).toBe('true');
      expect(b.outputs.changed).toBe('true');
      const db = slow.state.repo(TARGET).db;
      const tip = db.readRef('refs/docdb/e2e-race')!;
      const paths = db.flattenTree(db.getCommit(tip).tree).map((e) => e.path);
      expect(paths).toEqual(
        expect.arrayContaining([
          'github/base/octocat/hello-world.json',
          'github/repo/octo-org/widgets.json',
          'github/repo/octo-org/gadgets.json',
          'github/release/octo-org/widgets@v1.0.0.json',
        ]),
      );
      // Linear history: seed ← one run ← the other run.
      const messages: string[] = [];
      for (let sha: string | undefined = tip; sha; sha = db.getCommit(sha).parents[0])
        messages.push(db.getCommit(sha).message.split('\n')[0] as string);
      expect(messages).toHaveLength(3);
      expect(messages.slice(0, 2).sort()).toEqual(['run A', 'run B']);
      expect([a.outputs.version, b.outputs.version]).toContain(tip);
      const patches = slow.requests.filter((r) => r.method === 'PATCH').map((r) => r.status);
      // Every ref update either won (200) or lost the fast-forward race (422) and was retried.
      expect(patches.filter((s) => s === 200)).toHaveLength(2);
      expect(patches.every((s) => s === 200 || s === 422)).toBe(true);
    } finally {
      await slow.stop();
    }
  });

  it('read mode in a following step outputs the envelope, optionally at a version', async () => {
    const cwd = workspace({ '.github/docdb.yml': REPOS_SPEC(['octo-org/widgets']) });
    const project = await runDist(inputs('e2e-read'), { cwd });
    const v1 = project.outputs.version!;
    em.state.addBranch('octo-org/widgets', 'e2e-read-branch');
    const again = await runDist(inputs('e2e-read'), { cwd });
    expect(again.outputs.changed).toBe('true');
    const read = await runDist(
      inputs('e2e-read', { mode: 'read', namespace: 'github', type: 'repo', id: 'octo-org/widgets' }),
      { cwd },
    );
    expect(read.code, read.stdout).toBe(0);
    const doc = JSON.parse(read.outputs.document!);
    expect(doc).toMatchObject({
      namespace: 'github',
      type: 'repo',
      id: 'octo-org/widgets',
      version: again.outputs.version,
    });
    expect(doc.data.branches.map((b: { name: string }) => b.name)).toContain('refs/heads/e2e-read-branch');
    expect(read.outputs.version).toBe(again.outputs.version);
    expect(read.summary).toContain(
      'docdb read: <code>github/repo/octo-org/widgets</code> from <code>refs/docdb/e2e-read</code>',
    );
    // cold read: the ref, then one contents read at its commit
    expect(read.outputs.requests).toBe('2');
    const pinned = await runDist(
      inputs('e2e-read', { mode: 'read', namespace: 'github', type: 'repo', id: 'octo-org/widgets', version: v1 }),
      { cwd },
    );
    const old = JSON.parse(pinned.outputs.document!);
    expect(old.version).toBe(v1);
    expect(old.data.branches.map((b: { name: string }) => b.name)).not.toContain('refs/heads/e2e-read-branch');
    const missing = await runDist(
      inputs('e2e-read', { mode: 'read', namespace: 'github', type: 'repo', id: 'no/such' }),
      {
        cwd,
      },
    );
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/::error::.*document github\/repo\/no\/such not found/);
  });

  it('dry-run reports the diff and writes nothing', async () => {
    const cwd = workspace({ '.github/docdb.yml': REPOS_SPEC(['octo-org/widgets', 'octo-org/gadgets']) });
    em.clearLog();
    // Target repository and API URL from the runner's environment instead of inputs; the spec is found
    // in GITHUB_WORKSPACE even when the process starts elsewhere.
    const r = await runDist(
      { token: WRITE, section: 'e2e-dry', mode: 'dry-run' },
      { cwd: workspace({}), env: { GITHUB_REPOSITORY: TARGET, GITHUB_API_URL: em.url, GITHUB_WORKSPACE: cwd } },
    );
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.changed).toBe('false');
    expect(JSON.parse(r.outputs.keys!)).toHaveLength(2);
    expect(writes()).toEqual([]);
    expect(tree('e2e-dry').size).toBe(0);
    expect(r.summary).toContain('Dry run: 2 document(s) would change; nothing was written.');
    // The log says the same number of documents (state files counted apart) — issue 22.
    expect(r.stdout).toMatch(
      /dry-run: 2 document\(s\) would change \(2 written, 0 deleted\)( and \d state file\(s\))?; nothing written/,
    );
  });

  it('a custom reducer module from the workspace runs inside the bundle', async () => {
    const cwd = workspace({
      'cfg/docdb.yml':
        'projections:\n  titles:\n    source: { type: issues, repositories: [octocat/hello-world] }\n    identity: { type: title }\n    reducer: { module: ./docdb/title.mjs }\n',
      'cfg/docdb/title.mjs': 'export default (issue, ctx) => ({ title: issue.title, repo: ctx.repository });\n',
    });
    // Also: the spec at a non-default path, and a non-default ref root.
    const r = await runDist(inputs('e2e-custom', { spec: 'cfg/docdb.yml', root: 'data' }), { cwd });
    expect(r.code, r.stdout).toBe(0);
    expect(tree('e2e-custom').size).toBe(0);
    expect(r.summary).toContain('<code>refs/data/e2e-custom</code>');
    const files = tree('e2e-custom', TARGET, 'data');
    expect(JSON.parse(files.get('github/title/octocat/hello-world#1.json')!).data).toEqual({
      title: 'Say hello back',
      repo: 'octocat/hello-world',
    });
  });
});

describe('dist/index.js failures say what to fix', () => {
  it('bad spec → file:line:field', async () => {
    const cwd = workspace({
      '.github/docdb.yml':
        'projections:\n  repos:\n    source:\n      type: repository\n      repositories: [octo-org/widgets]\n    identity:\n      id: "{owner}/{nmae}"\n',
    });
    em.clearLog();
    const r = await runDist(inputs('e2e-bad'), { cwd });
    expect(r.code).toBe(1);
    // An annotation on the spec line: the workflow run marks .github/docdb.yml line 7.
    expect(r.stdout).toMatch(
      /::error title=docdb%3A invalid projection spec,file=\.github\/docdb\.yml,line=7,col=\d+::.*\.github\/docdb\.yml:7:\d+: projections\.repos\.identity\.id: unknown template variable \{nmae\}/,
    );
    expect(em.requests).toEqual([]); // validated before any request
  });

  it('missing spec file and bad inputs', async () => {
    const cwd = workspace({});
    const r = await runDist(inputs('e2e-bad'), { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::projection spec .github\/docdb.yml not found/);
    const m = await runDist(inputs('e2e-bad', { mode: 'sync' }), { cwd });
    expect(m.stdout).toMatch(
      /::error::input "mode": "sync" is not a mode; use one of project, backfill, read, dry-run/,
    );
  });

  it('read-only token → asks for contents: write, and nothing is committed', async () => {
    const cwd = workspace({ '.github/docdb.yml': REPOS_SPEC(['octo-org/widgets']) });
    const r = await runDist(inputs('e2e-perm', { token: 'ghp_demo_read' }), { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/contents: write/);
    expect(r.stdout.replace('::add-mask::ghp_demo_read', '')).not.toContain('ghp_demo_read');
    expect(tree('e2e-perm').size).toBe(0);
  });

  it('unknown source repository, empty target repository', async () => {
    const cwd = workspace({ '.github/docdb.yml': REPOS_SPEC(['octo-org/widgets', 'octo-org/nope']) });
    const r = await runDist(inputs('e2e-unknown'), { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/source repository octo-org\/nope not found/);
    expect(tree('e2e-unknown').size).toBe(0);
    const cwd2 = workspace({ '.github/docdb.yml': REPOS_SPEC(['octo-org/widgets']) });
    const e = await runDist(inputs('e2e-empty', { repository: 'octocat/empty' }), { cwd: cwd2 });
    expect(e.code).toBe(1);
    expect(e.stdout).toMatch(/octocat\/empty is empty.*first commit/);
  });

  it('rate limit → names the reset time', async () => {
    em.state.addToken('ghp_tiny', { login: 'octo-org', repos: '*', rateLimit: 2 });
    const cwd = workspace({ '.github/docdb.yml': REPOS_SPEC(['octo-org/widgets', 'octo-org/gadgets']) });
    const r = await runDist(inputs('e2e-rate', { token: 'ghp_tiny' }), { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/rate limit.*resets at \d{4}-\d\d-\d\dT/i);
    expect(tree('e2e-rate').size).toBe(0);
  });
  it('losing the fast-forward race every time → names the competing commit, commits nothing of its own', async () => {
    // A competing writer (this test) advances the section right after each commit the run creates.
    const slow = await startEmulator({ seed: DEMO_SEED, latencyMs: 120 });
    const ref = 'refs/docdb/e2e-conflict';
    try {
      const cwd = workspace({ '.github/docdb.yml': REPOS_SPEC(['octo-org/widgets']) });
      const at = (extra: Record<string, string>) => ({ ...inputs('e2e-conflict', extra), 'api-url': slow.url });
      await runDist(at({}), { cwd });
      slow.state.addBranch('octo-org/widgets', 'e2e-conflict-branch');
      const competing: string[] = [];
      let seen = 0;
      const timer = setInterval(() => {
        const commits = slow.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/git/commits')).length;
        while (seen < commits) {
          seen++;
          if (seen === 1) continue; // the seed run's commit
          competing.push(
            slow.state.commitFiles(TARGET, { branch: ref, files: { [`other/${seen}.txt`]: String(seen) } }),
          );
        }
      }, 2);
      const r = await runDist(at({ 'retry-concurrent-writes': '1' }), { cwd }).finally(() => clearInterval(timer));
      expect(r.code, r.stdout).toBe(1);
      const tip = slow.state.repo(TARGET).db.readRef(ref)!;
      expect(competing.at(-1)).toBe(tip);
      expect(r.stdout).toMatch(new RegExp(`competing commit ${tip}`));
      expect(r.stdout).toMatch(/Nothing was committed by this run/);
      // The hint names the Action's input, not the library option behind it.
      expect(r.stdout).toMatch(/raise the "retry-concurrent-writes" input/);
      expect(r.stdout).not.toMatch(/retryConcurrentWrites/);
      // The tip is the competitor's; this run's documents did not land.
      const paths = slow.state
        .repo(TARGET)
        .db.flattenTree(slow.state.repo(TARGET).db.getCommit(tip).tree)
        .map((e) => e.path);
      expect(paths.filter((p) => p.startsWith('other/')).length).toBe(competing.length);
    } finally {
      await slow.stop();
    }
  });
});
