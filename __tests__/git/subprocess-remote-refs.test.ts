/**
 * SubprocessGitRefStore and the other refs of a remote (issue 18 §6, §7; issue 22):
 * - git matches a push destination by its tail: a branch or tag named `refs/docdb/documents` would
 *   capture the push (or make it ambiguous). Writes refuse with a typed error naming it, and write nothing.
 * - a read asks only for refs named like the section (protocol v2 ref prefixes): a remote with 10,000
 *   other refs costs nothing extra, where `git ls-remote` receives all of them.
 * - a remote that does not exist or cannot be reached: a NotFound or TransportError saying why, and no
 *   cache directory left behind (one that fetched before is kept).
 * - a shadowing ref created between the fetch and the push: the same typed error as one seen by the fetch.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidConfig, NotFound, TransportError } from '../../src/core/errors.js';
import { defaultCacheDir, SubprocessGitRefStore } from '../../src/stores/git/index.js';
import { runCli } from '../cli/run-cli.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, git, gitWrapper, loggedCalls, subcommand, tempDir } from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup() {
  const tmp = tempDir();
  const remoteDir = bareRepo(tmp.dir, 'remote.git');
  const stores: SubprocessGitRefStore[] = [];
  let n = 0;
  const open = (env: NodeJS.ProcessEnv = GIT_TEST_ENV, gitCommand?: string) => {
    const s = new SubprocessGitRefStore({
      remote: pathToFileURL(remoteDir).href,
      dir: join(tmp.dir, `c${n++}.git`),
      env,
      ...(gitCommand ? { git: gitCommand } : {}),
    });
    stores.push(s);
    return s;
  };
  cleanups.push(async () => {
    await Promise.all(stores.map((s) => s.close()));
    tmp.cleanup();
  });
  return { tmp, remoteDir, open };
}

/** A commit on the remote's main branch, for shadowing refs to point at. */
function someCommit(remoteDir: string): string {
  const tree = git(['--git-dir', remoteDir, 'mktree'], { input: '' }).trim();
  return git(['--git-dir', remoteDir, 'commit-tree', tree, '-m', 'not the section']).trim();
}

/**
 * `count` branches `refs/heads/decoy-N` on commit `c`, written into the remote as ONE packed-refs file, the
 * way `git pack-refs` (and every `git gc`) leaves a repository's refs. `update-ref --stdin` would write
 * 10,000 loose refs, each its own lock file and rename: 34 s on the loaded CI machine (issue 37 item 18),
 * which pushed this test past its 60 s; git reads packed refs exactly as it reads loose ones.
 */
function packDecoys(remoteDir: string, c: string, count: number): void {
  const file = join(remoteDir, 'packed-refs');
  const old = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('#'))
    : [];
  // Peeled lines (`^sha`, after an annotated tag) cannot be re-sorted line by line: there are none here.
  if (old.some((l) => l.startsWith('^'))) throw new Error(`${file} holds peeled tags: packDecoys cannot merge it`);
  const lines = [...old, ...Array.from({ length: count }, (_, i) => `${c} refs/heads/decoy-${i}`)];
  const name = (l: string) => l.slice(l.indexOf(' ') + 1);
  lines.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  writeFileSync(file, `# pack-refs with: peeled fully-peeled sorted \n${lines.join('\n')}\n`);
}

const refs = (dir: string) => git(['--git-dir', dir, 'for-each-ref', '--format=%(refname) %(objectname)']);

describe('a ref that shadows the section for git push', () => {
  it.each(['refs/heads/refs/docdb/documents', 'refs/tags/refs/docdb/documents', 'refs/remotes/refs/docdb/documents'])(
    '%s: the first write refuses, naming it, and writes nothing (not even to it)',
    async (shadow) => {
      const { remoteDir, open } = setup();
      const c = someCommit(remoteDir);
      git(['--git-dir', remoteDir, 'update-ref', shadow, c]);
      const before = refs(remoteDir);
      const err = await open()
        .put('a.json', '1')
        .catch((e) => e);
      expect(err).toBeInstanceOf(InvalidConfig); // as GitHttpRefStore says it: the section ref is unusable there
      expect(err.data).toMatchObject({ field: 'ref', reason: 'ambiguous-ref', shadows: [shadow] });
      expect(err.message).toContain(`has ${shadow}, whose name ends in the section ref refs/docdb/documents`);
      expect(refs(remoteDir)).toBe(before);
    },
  );

  it('an existing section: reads still see the section, writes refuse until the branch is gone', async () => {
    const { remoteDir, open } = setup();
    const writer = open();
    await writer.put('a.json', 'section');
    const sectionTip = git(['--git-dir', remoteDir, 'rev-parse', 'refs/docdb/documents']).trim();
    git(['--git-dir', remoteDir, 'update-ref', 'refs/heads/refs/docdb/documents', someCommit(remoteDir)]);
    const reader = open();
    expect(new TextDecoder().decode((await reader.get('a.json'))!.value)).toBe('section');
    await expect(reader.put('b.json', '2')).rejects.toMatchObject({
      code: 'InvalidConfig',
      data: { reason: 'ambiguous-ref' },
    });
    expect(git(['--git-dir', remoteDir, 'rev-parse', 'refs/docdb/documents']).trim()).toBe(sectionTip);
    git(['--git-dir', remoteDir, 'update-ref', '-d', 'refs/heads/refs/docdb/documents']);
    expect((await reader.put('b.json', '2')).changed).toBe(true);
    expect(git(['--git-dir', remoteDir, 'for-each-ref', '--format=%(refname)', 'refs/heads/refs/']).trim()).toBe('');
    fsckStrict(remoteDir);
  });

  it('one that appears between the fetch and the push: the same InvalidConfig (ambiguous-ref), not Forbidden', async () => {
    const { tmp, remoteDir, open } = setup();
    await open().put('a.json', 'section');
    const sectionTip = git(['--git-dir', remoteDir, 'rev-parse', 'refs/docdb/documents']).trim();
    const shadow = 'refs/heads/refs/docdb/documents';
    // Just before the push (after the write's fetch saw no shadow), someone creates the branch.
    const before = `case " $* " in *" push "*) git --git-dir='${remoteDir}' update-ref ${shadow} ${sectionTip} ;; esac`;
    const log = join(tmp.dir, 'calls.log');
    const store = open(GIT_TEST_ENV, gitWrapper(tmp.dir, { log, before }));
    const err = await store.put('b.json', '2').catch((e) => e);
    expect(err).toBeInstanceOf(InvalidConfig);
    expect(err.data).toMatchObject({ field: 'ref', reason: 'ambiguous-ref', shadows: [shadow] });
    expect(loggedCalls(log).filter((c) => subcommand(c) === 'push')).toHaveLength(1);
    expect(git(['--git-dir', remoteDir, 'rev-parse', 'refs/docdb/documents']).trim()).toBe(sectionTip);
  });
});

describe('a remote with many refs', () => {
  it('a read asks only for refs named like the section; ls-remote would receive every ref', async () => {
    const { tmp, remoteDir, open } = setup();
    await open().put('a.json', '1');
    const c = someCommit(remoteDir);
    packDecoys(remoteDir, c, 10_000);
    expect(
      refs(remoteDir)
        .split('\n')
        .filter((l) => l.startsWith('refs/heads/decoy-')),
    ).toHaveLength(10_000);
    const trace = join(tmp.dir, 'packets.log');
    const reader = open({ ...GIT_TEST_ENV, GIT_TRACE_PACKET: trace });
    expect(new TextDecoder().decode((await reader.get('a.json'))!.value)).toBe('1');
    await reader.get('a.json'); // warm: the same one fetch
    const received = readFileSync(trace, 'utf8').split('\n');
    expect(received.filter((l) => l.includes('refs/heads/decoy-')).length).toBe(0);
    expect(received.some((l) => l.includes('ref-prefix refs/docdb/documents'))).toBe(true);
    // The old read, `git ls-remote <remote> <ref>`, received every ref of the same remote.
    const lsTrace = join(tmp.dir, 'ls-remote.log');
    execFileSync('git', ['ls-remote', pathToFileURL(remoteDir).href, 'refs/docdb/documents'], {
      env: { ...GIT_TEST_ENV, GIT_TRACE_PACKET: lsTrace },
    });
    const lsReceived = readFileSync(lsTrace, 'utf8').split('\n');
    // (The trace holds both ends of a local transport: count what ls-remote received.)
    expect(lsReceived.filter((l) => l.includes('ls-remote<') && l.includes('refs/heads/decoy-')).length).toBe(10_000);
  });
});

describe('a remote that does not exist or cannot be reached', () => {
  it('is NotFound saying why, and leaves no cache directory behind', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const dir = join(tmp.dir, 'cache.git');
    const store = new SubprocessGitRefStore({ remote: join(tmp.dir, 'missing.git'), dir, env: GIT_TEST_ENV });
    cleanups.push(() => store.close());
    const err = await store.get('a.json').catch((e) => e);
    expect(err).toBeInstanceOf(NotFound);
    expect(err.message).toMatch(/remote .*missing\.git was not found \(git: .*does not appear to be a git repository/);
    expect(err.message).not.toContain('and the repository exists');
    expect(existsSync(dir)).toBe(false);
  });

  it('an unreachable host: TransportError (CLI exit 1), and no default cache repository left behind', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const env = { ...GIT_TEST_ENV, XDG_CACHE_HOME: join(tmp.dir, 'xdg') };
    const remote = 'https://127.0.0.1:1/x.git';
    const store = new SubprocessGitRefStore({ remote, env });
    cleanups.push(() => store.close());
    expect(store.dir).toBe(defaultCacheDir(remote, env));
    const err = await store.get('a.json').catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(existsSync(store.dir)).toBe(false);
    const cli = await runCli(
      ['doc', 'get', '--namespace', 'n', '--type', 't', '--id', 'x', '--refstore', 'subprocess', '--remote', remote],
      {
        env,
      },
    );
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/TransportError/);
    expect(existsSync(store.dir)).toBe(false);
  });

  it('a cache that fetched once is kept when a later fetch fails', async () => {
    const { remoteDir, open } = setup();
    const store = open();
    await store.put('a.json', '1');
    rmSync(remoteDir, { recursive: true, force: true });
    await expect(store.get('a.json')).rejects.toBeInstanceOf(NotFound);
    expect(existsSync(store.dir)).toBe(true);
    bareRepo(dirname(remoteDir), basename(remoteDir)); // for the cleanup's fsck
  });
});
