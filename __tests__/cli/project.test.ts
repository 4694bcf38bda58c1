/**
 * `docdb project` runs a spec with the Action's engine: the summary table on stdout, progress on
 * stderr, and — with --refstore git — exactly the same section (same tree) as the Action's store.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, git, tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
  tmp = tempDir('docdb-cli-project-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

const env = () => ({ ...GIT_TEST_ENV, GITHUB_TOKEN: 'ghp_demo_write', GITHUB_API_URL: em.url });
const project = (args: string[]) =>
  runCli(['project', '--spec', 'examples/docdb.yml', '--repo', 'octo-org/widgets', ...args], { env: env(), cwd: ROOT });

describe('docdb project', () => {
  it('projects through the API: summary table on stdout, progress on stderr; a re-run makes no commit', async () => {
    const first = await project(['--section', 'cli-project']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^### docdb project: <code>refs\/docdb\/cli-project<\/code> in octo-org\/widgets/);
    expect(first.stdout).toMatch(/\| repos \| repository \| 3 \| 0 \| 0 \| 0 \| 0 \|/);
    expect(first.stdout).toMatch(/Commit: \[`[0-9a-f]{7}`\]/);
    expect(first.stderr.length).toBeGreaterThan(0);
    expect(first.stdout).not.toContain('ghp_demo_write');
    const again = await project(['--section', 'cli-project', '--json']);
    const out = again.json() as { outputs: Record<string, string>; report: { changed: boolean } };
    expect(out.outputs.changed).toBe('false');
    expect(out.report.changed).toBe(false);
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
    expect(dry.stdout).toMatch(/Dry run: \d+ document\(s\) would change; nothing was written/);
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
    const floor = await project(['--section', 'cli-sharded', '--min-rate-limit', 'lots']);
    expect(floor.code).toBe(2);
    expect(floor.stderr).toMatch(/--min-rate-limit.*must be a whole number/);
  });
});
