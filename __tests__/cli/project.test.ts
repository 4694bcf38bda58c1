/**
 * `docdb project` runs a spec with the Action's engine: a plain summary on stdout (the Markdown job
 * summary under GitHub Actions), progress on stderr, and — with --refstore git — exactly the same section (same tree) as the Action's store.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/index.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { warmGraphql } from '../emulator/warm-graphql.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, git, tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  // One-time costs of the process, paid before any test is timed: GitHub's GraphQL schema (the example
  // spec's repository source is GraphQL, read by the CLI's 30 s-timed transport) and the modules of the
  // project command, which the CLI imports on first use (the whole projection engine, transformed by
  // vitest: most of the first test's 60 s beside four busy loops, issue 37 item 18).
  await Promise.all([warmGraphql(), import('../../src/cli/commands/project.js')]);
  em = await startEmulator({ seed: DEMO_SEED });
  tmp = tempDir('docdb-cli-project-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

/** What a terminal reader should never see: HTML, Markdown tables, workflow commands, percent-encoding. */
const TERMINAL_NOISE = /<code>|<\/?details>|<summary>|\|---|::[a-z-]+(?: [^:]*)?::|%3A/;
const env = () => ({ ...GIT_TEST_ENV, GITHUB_TOKEN: 'ghp_demo_write', GITHUB_API_URL: em.url });
const project = (args: string[]) =>
  runCli(['project', '--spec', 'examples/docdb.yml', '--repo', 'octo-org/widgets', ...args], { env: env(), cwd: ROOT });

describe('docdb project', () => {
  it('projects through the API: a plain summary on stdout, progress on stderr; a re-run makes no commit', async () => {
    const first = await project(['--section', 'cli-project']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^docdb project: refs\/docdb\/cli-project in octo-org\/widgets\n/);
    expect(first.stdout).toMatch(/^ {2}repos +repository +3 added, 0 modified, 0 removed, 0 unchanged$/m);
    expect(first.stdout).toMatch(/^new version [0-9a-f]{40} \(section created\); (not )?verified \(/m);
    expect(first.stdout).toMatch(/^\d+ request\(s\), rate limit left \d+\/\d+ \(resets /m);
    expect(first.stdout).not.toMatch(TERMINAL_NOISE);
    expect(first.stderr.length).toBeGreaterThan(0);
    expect(first.stdout).not.toContain('ghp_demo_write');
    const again = await project(['--section', 'cli-project', '--json']);
    const out = again.json() as { outputs: Record<string, string>; report: { changed: boolean } };
    expect(out.outputs.changed).toBe('false');
    expect(out.report.changed).toBe(false);
  });

  it('every skip says why, in the text summary, the progress and --json (issue 37 item 15)', async () => {
    // examples/reducers/release-notes.mjs returns null for a prerelease: one of octo-org/widgets' releases.
    const reason = 'the reducer ./reducers/release-notes.mjs returned null (its way to skip an item)';
    const key = 'github/release-notes/octo-org/widgets/v1.1.0-rc.1';
    const text = await project(['--section', 'cli-skips-text']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^ {2}release-notes +releases +3 added, 0 modified, 0 removed, 0 unchanged, 1 skipped$/m,
    );
    expect(text.stdout).toContain(`\n1 skipped in release-notes: ${reason}: ${key}\n`);
    expect(text.stderr).toContain(
      `[release-notes] 4 item(s): 3 added, 0 changed, 0 removed, 0 unchanged, 1 skipped: 1 because ${reason}\n`,
    );
    const json = await project(['--section', 'cli-skips-json', '--json']);
    const { report } = json.json() as { report: { projections: { name: string; skipped: number; skips: unknown }[] } };
    const notes = report.projections.find((p) => p.name === 'release-notes');
    expect(notes).toMatchObject({ skipped: 1, skips: [{ reason, count: 1, keys: [`${key}.json`] }] });
    // Every projection's skips add up to its count: no skip without a reason.
    for (const p of report.projections) {
      expect((p.skips as { count: number }[]).reduce((n, s) => n + s.count, 0)).toBe(p.skipped);
    }
  });

  it('under GitHub Actions (GITHUB_ACTIONS=true) stdout is the Markdown job summary, as before', async () => {
    const r = await runCli(
      ['project', '--spec', 'examples/docdb.yml', '--repo', 'octo-org/widgets', '--section', 'cli-actions'],
      {
        env: { ...env(), GITHUB_ACTIONS: 'true' },
        cwd: ROOT,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^### docdb project: <code>refs\/docdb\/cli-actions<\/code> in octo-org\/widgets/);
    expect(r.stdout).toMatch(/\| repos \| repository \| 3 \| 0 \| 0 \| 0 \| 0 \|/);
    expect(r.stdout).toContain(
      '**1 skipped** in release-notes: the reducer ./reducers/release-notes.mjs returned null &#40;its way to skip an item&#41;: <code>github/release-notes/octo-org/widgets/v1.1.0-rc.1.json</code>', // mdText: parentheses as character references
    );
    expect(r.stdout).toMatch(/Commit: \[`[0-9a-f]{7}`\]/);
    expect(r.stdout).toContain('<details>');
  });

  it("names what prune removed: the README's library example, then the example spec (issue 32 item 8)", async () => {
    const docs = new DocumentStore(
      new RemoteApiRefStore({
        transport: fetchTransport(),
        apiUrl: em.url,
        owner: 'octo-org',
        repo: 'widgets',
        ref: 'refs/docdb/pruned',
        token: 'ghp_demo_write',
      }),
    );
    // What the README's library example wrote before it moved to its own namespace: a document in the
    // scope the example spec's `repos` projection owns (github/repo/, prune: true).
    await docs.put({ namespace: 'github', type: 'repo', id: 'octo-org/api', data: { stars: 3 } });
    await docs.put({ namespace: 'inventory', type: 'repo', id: 'octo-org/api', data: { stars: 3 } });
    const r = await project(['--section', 'pruned']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}repos +repository +3 added, 0 modified, 1 removed, 0 unchanged$/m);
    expect(r.stdout).toContain('\n1 removed: github/repo/octo-org/api\n');
    expect(r.stdout).not.toMatch(TERMINAL_NOISE);
    // A namespace no projection owns is left alone.
    expect(await docs.get({ namespace: 'inventory', doc_type: 'repo', id: 'octo-org/api' })).toMatchObject({
      data: { stars: 3 },
    });
    expect(await docs.get({ namespace: 'github', doc_type: 'repo', id: 'octo-org/api' })).toBeNull();
  });

  it('messages name the CLI flags, not the Action inputs', async () => {
    const missing = await runCli(['project', '--spec', 'nope/docdb.yml', '--repo', 'octo-org/widgets'], {
      env: env(),
      cwd: ROOT,
    });
    expect(missing.code).toBe(2); // a usage problem, reported with the others before any request
    expect(missing.stderr).toMatch(/projection spec nope\/docdb\.yml not found: .* or set --spec to its path/);
    const unknown = await project(['--section', 'cli-words', '--projections', 'repos,nope']);
    expect(unknown.stderr).toMatch(/--projections names "nope", which is not in examples\/docdb\.yml/);
    const mode = await project(['--section', 'cli-words', '--mode', 'read']);
    expect(mode.code).toBe(2);
    for (const r of [missing, unknown, mode]) expect(r.stderr).not.toMatch(/\binput\b/);
  });

  it('an unreachable API names the way out (--api-url, the emulator), as the doc commands do', async () => {
    const unreachable = await runCli(
      ['project', '--spec', 'examples/docdb.yml', '--repo', 'octo-org/widgets', '--api-url', 'http://127.0.0.1:9'],
      { env: { ...GIT_TEST_ENV, GITHUB_TOKEN: 'ghp_demo_write' }, cwd: ROOT },
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(
      'Is the API URL right? docdb used http://127.0.0.1:9 (from --api-url; set it with --api-url or $GITHUB_API_URL).',
    );
  });

  it('a rejected token says where it came from, never the token', async () => {
    const rejected = await runCli(['project', '--spec', 'examples/docdb.yml', '--repo', 'octo-org/widgets'], {
      env: { ...GIT_TEST_ENV, GITHUB_TOKEN: 'ghp_NotAKnownToken0123456789abcdefABCDEF', GITHUB_API_URL: em.url },
      cwd: ROOT,
    });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/\$GITHUB_TOKEN/);
    expect(rejected.stderr).not.toContain('ghp_NotAKnownToken0123456789abcdefABCDEF');
  });

  it('--refstore git writes the very same section (same tree) into a local bare repository', async () => {
    const api = await project(['--section', 'same-engine', '--json']);
    const apiVersion = (api.json() as { outputs: { version: string } }).outputs.version;
    const store = new RemoteApiRefStore({
      transport: fetchTransport(),
      apiUrl: em.url,
      owner: 'octo-org',
      repo: 'widgets',
      ref: 'refs/docdb/same-engine',
      token: 'ghp_demo_write',
    });
    const apiList = await store.list();
    expect(apiList.version).toBe(apiVersion);

    const dir = bareRepo(tmp.dir, 'projected.git');
    const dry = await project(['--refstore', 'git', '--git-dir', dir, '--section', 'same-engine', '--mode', 'dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/dry run: \d+ document\(s\) would change; nothing was written/);
    expect(git(['--git-dir', dir, 'for-each-ref']).trim()).toBe('');

    const local = await project(['--refstore', 'git', '--git-dir', dir, '--section', 'same-engine', '--json']);
    expect(local.code, local.stderr).toBe(0);
    const localVersion = (local.json() as { outputs: { version: string } }).outputs.version;
    expect(git(['--git-dir', dir, 'rev-parse', 'refs/docdb/same-engine']).trim()).toBe(localVersion);
    const lsTree = git(['--git-dir', dir, 'ls-tree', '-r', '--format=%(path) %(objectname)', localVersion])
      .trim()
      .split('\n')
      .sort();
    // Documents are byte-identical. The state files are too, except the ETags of conditional reads: a list
    // such as pulls embeds the repository (pushed_at), which the API run's own commit moved in between.
    const documents = (lines: string[]) => lines.filter((l) => !l.startsWith('_docdb/'));
    expect(documents(lsTree)).toEqual(documents(apiList.entries.map((e) => `${e.key} ${e.blobSha}`).sort()));
    const stateWithoutEtags = (text: string) =>
      JSON.stringify(JSON.parse(text), (k, v) => (k === 'etags' ? undefined : v));
    const stateKeys = apiList.entries.filter((e) => e.key.startsWith('_docdb/state/')).map((e) => e.key);
    expect(stateKeys.length).toBeGreaterThan(0);
    for (const key of stateKeys) {
      const local = git(['--git-dir', dir, 'cat-file', 'blob', `${localVersion}:${key}`]);
      const remote = new TextDecoder().decode((await store.get(key))!.value);
      expect(stateWithoutEtags(local), key).toBe(stateWithoutEtags(remote));
    }
    fsckStrict(dir);
  });

  it('--shard i/n: two shard runs into one section add up to the unsharded run; a bad shard is a usage error', async () => {
    const whole = await project(['--section', 'cli-unsharded', '--json']);
    expect(whole.code, whole.stderr).toBe(0);
    for (const shard of ['1/2', '2/2']) {
      const r = await project(['--section', 'cli-sharded', '--shard', shard, '--json']);
      expect(r.code, r.stderr).toBe(0);
    }
    const list = async (section: string) =>
      (
        await new RemoteApiRefStore({
          transport: fetchTransport(),
          apiUrl: em.url,
          owner: 'octo-org',
          repo: 'widgets',
          ref: `refs/docdb/${section}`,
          token: 'ghp_demo_write',
        }).list()
      ).entries
        .filter((e) => !e.key.startsWith('_docdb/'))
        .map((e) => `${e.key} ${e.blobSha}`);
    const sharded = await list('cli-sharded');
    expect(sharded.length).toBeGreaterThan(1);
    expect(sharded).toEqual(await list('cli-unsharded'));

    const bad = await project(['--section', 'cli-sharded', '--shard', '3/2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--shard.*"3\/2" must be "i\/n" \(digits only, no spaces or leading zeros\) with 1 <= i <= n <= 256/,
    );
    // The example is a command line, not the Action's matrix YAML (issue 32 item 4).
    expect(bad.stderr).toContain('e.g. --shard 2/4');
    expect(bad.stderr).not.toMatch(/matrix|\$\{\{/);
    const floor = await project(['--section', 'cli-sharded', '--min-rate-limit', 'lots']);
    expect(floor.code).toBe(2);
    expect(floor.stderr).toMatch(/--min-rate-limit.*must be a whole number/);
  });

  it('--shard-commit merge, then --mode merge --shards 2: shard refs of this run folded into the section in one commit, a plain summary', async () => {
    const run = { ...env(), GITHUB_RUN_ID: '31337' };
    for (const shard of ['1/2', '2/2']) {
      const r = await runCli(
        [
          'project',
          '--spec',
          'examples/docdb.yml',
          '--repo',
          'octo-org/widgets',
          '--section',
          'cli-merge',
          '--shard',
          shard,
          '--shard-commit',
          'merge',
        ],
        { env: run, cwd: ROOT },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`shard ${shard} writes refs/docdb/cli-merge\\.shards/${shard[0]}`));
    }
    const db = em.state.repo('octo-org/widgets').db;
    expect(db.readRef('refs/docdb/cli-merge')).toBeUndefined();
    const merged = await runCli(
      [
        'project',
        '--repo',
        'octo-org/widgets',
        '--spec',
        'examples/docdb.yml',
        '--section',
        'cli-merge',
        '--mode',
        'merge',
        '--shards',
        '2',
      ],
      { env: run, cwd: ROOT },
    );
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/^docdb merge: refs\/docdb\/cli-merge in octo-org\/widgets\n {2}shard 1 +\d+ added/);
    expect(merged.stdout).toMatch(
      /^new version [0-9a-f]{40} \(was none\), \d+ document\(s\) changed; shard refs deleted$/m,
    );
    expect(merged.stdout).not.toMatch(TERMINAL_NOISE);
    expect(db.readRef('refs/docdb/cli-merge.shards/1')).toBeUndefined();
    const bad = await project(['--section', 'cli-merge', '--mode', 'merge']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--shards: is required with mode: merge/);
  });
});
