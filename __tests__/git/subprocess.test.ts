/**
 * SubprocessGitRefStore beyond the contract: what it fetches and when, compare-and-swap pushes
 * (ConcurrentUpdate after the configured retries, a lost reply, a remote that refuses), and the
 * remote option checked before it reaches a command line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConcurrentUpdate, Forbidden, InvalidConfig, NotFound } from '../../src/core/errors.js';
import { SubprocessGitRefStore } from '../../src/stores/git/index.js';
import {
  bareRepo,
  fsckStrict,
  GIT_TEST_ENV,
  git,
  gitWrapper,
  intruderBefore,
  loggedCalls,
  subcommand,
  tempDir,
} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const text = (b: Uint8Array) => new TextDecoder().decode(b);

function setup() {
  const tmp = tempDir();
  const remoteDir = bareRepo(tmp.dir, 'remote.git');
  const remote = pathToFileURL(remoteDir).href;
  const stores: SubprocessGitRefStore[] = [];
  let n = 0;
  const open = (extra: Partial<ConstructorParameters<typeof SubprocessGitRefStore>[0]> = {}) => {
    const s = new SubprocessGitRefStore({
      remote,
      dir: join(tmp.dir, `cache-${n++}.git`),
      env: GIT_TEST_ENV,
      ...extra,
    });
    stores.push(s);
    return s;
  };
  cleanups.push(async () => {
    await Promise.all(stores.map((s) => s.close()));
    tmp.cleanup();
  });
  return { tmp, remoteDir, remote, open };
}

const commands = (log: string) => loggedCalls(log).map((c) => subcommand(c));

describe('SubprocessGitRefStore reads', () => {
  it('one fetch of the section ref per read, with ref prefixes; objects only when the tip moved', async () => {
    const { tmp, remoteDir, open } = setup();
    // Other refs on the remote must never be fetched.
    const other = open({ ref: 'refs/docdb/other' });
    await other.put('elsewhere.json', 'not for us');
    const writer = open();
    await writer.put('a.json', 'A');
    const log = join(tmp.dir, 'calls.log');
    const reader = open({ git: gitWrapper(tmp.dir, { log }) });
    expect(text((await reader.get('a.json'))!.value)).toBe('A');
    expect(commands(log).filter((c) => c !== 'cat-file')).toEqual(['init', 'rev-parse', 'fetch', 'for-each-ref']);
    const fetch = loggedCalls(log).find((c) => subcommand(c) === 'fetch')!;
    const url = pathToFileURL(remoteDir).href;
    expect(fetch.slice(fetch.indexOf(url))).toEqual([
      url,
      '+refs/docdb/documents*:refs/docdb/documents*',
      '+refs/refs/docdb/documents*:refs/docdb-probe/0*',
      '+refs/tags/refs/docdb/documents*:refs/docdb-probe/1*',
      '+refs/heads/refs/docdb/documents*:refs/docdb-probe/2*',
      '+refs/remotes/refs/docdb/documents*:refs/docdb-probe/3*',
    ]);
    expect(fetch).toContain('--no-tags');
    expect(fetch).toContain('--prune');
    const objects = () => git(['--git-dir', reader.dir, 'count-objects', '-v']);

    writeFileSync(log, '');
    const before = objects();
    await reader.get('a.json');
    await reader.list();
    expect(commands(log).filter((c) => c === 'fetch' || c === 'ls-remote')).toEqual(['fetch', 'fetch']);
    expect(objects()).toBe(before); // tip unchanged: nothing downloaded

    writeFileSync(log, '');
    await writer.put('b.json', 'B');
    expect(text((await reader.get('b.json'))!.value)).toBe('B');
    expect(commands(log).filter((c) => c === 'fetch' || c === 'ls-remote')).toEqual(['fetch']);

    writeFileSync(log, '');
    await reader.put('c.json', 'C'); // its own write: pushed, and the cache follows
    expect(text((await reader.get('c.json'))!.value)).toBe('C');
    expect(commands(log)).not.toContain('ls-remote');
    expect(git(['--git-dir', reader.dir, 'for-each-ref', '--format=%(refname)']).trim()).toBe('refs/docdb/documents');
    fsckStrict(reader.dir);
  });

  it('a version the cache lacks is fetched; one the section never had is InvalidVersion', async () => {
    const { open } = setup();
    const writer = open();
    const v1 = (await writer.put('k', 'one')).version!;
    await writer.put('k', 'two');
    const reader = open();
    expect(text((await reader.get('k', { version: v1 }))!.value)).toBe('one');
    await expect(reader.get('k', { version: 'f'.repeat(40) })).rejects.toMatchObject({ code: 'InvalidVersion' });
    expect(await reader.head()).toBe(await writer.head());
  });

  it('a section deleted on the remote reads as empty', async () => {
    const { remoteDir, open } = setup();
    const store = open();
    await store.put('k', 'v');
    git(['--git-dir', remoteDir, 'update-ref', '-d', 'refs/docdb/documents']);
    expect(await store.get('k')).toBeNull();
    expect((await store.list()).version).toBeNull();
    expect(git(['--git-dir', store.dir, 'for-each-ref']).trim()).toBe('');
  });
});

describe('SubprocessGitRefStore writes', () => {
  it('push with --force-with-lease on the fetched tip; ConcurrentUpdate(other) after the configured retries', async () => {
    const { tmp, remoteDir, open } = setup();
    await open().put('base.json', 'base');
    // Just before every push, another writer advances the remote ref.
    const intruder = intruderBefore(remoteDir, 'push');
    const log = join(tmp.dir, 'calls.log');
    const store = open({ git: gitWrapper(tmp.dir, { log, before: intruder }), retryConcurrentWrites: 2 });
    const err = await store.put('mine.json', 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConcurrentUpdate);
    const tip = git(['--git-dir', remoteDir, 'rev-parse', 'refs/docdb/documents']).trim();
    expect((err as ConcurrentUpdate).otherSha).toBe(tip);
    expect((err as ConcurrentUpdate).data.attempts).toBe(3);
    const pushes = loggedCalls(log).filter((c) => subcommand(c) === 'push');
    expect(pushes).toHaveLength(3);
    for (const p of pushes)
      expect(p.find((a) => a.startsWith('--force-with-lease='))).toMatch(
        /^--force-with-lease=refs\/docdb\/documents:[0-9a-f]{40}$/,
      );
    // Each retry was rebased on the new tip: the leases name three different tips.
    expect(new Set(pushes.map((p) => p.find((a) => a.startsWith('--force-with-lease=')))).size).toBe(3);
    expect(git(['--git-dir', remoteDir, 'ls-tree', '-r', '--name-only', 'refs/docdb/documents']).trim()).toBe(
      'base.json',
    );
  });

  it('a push whose reply was lost is recognised as landed (the remote tip is our commit)', async () => {
    const { tmp, remoteDir, open } = setup();
    // The push happens, then git reports a broken connection.
    const real = gitWrapper(tmp.dir);
    const lossy = join(tmp.dir, 'lossy-git');
    writeFileSync(
      lossy,
      `#!/bin/sh\ncase " $* " in *" push "*) '${real}' "$@" >/dev/null 2>&1; echo "fatal: the remote end hung up unexpectedly" >&2; exit 128 ;; esac\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    );
    const store = open({ git: lossy });
    const r = await store.put('k.json', 'v');
    expect(r.changed).toBe(true);
    expect(git(['--git-dir', remoteDir, 'rev-parse', 'refs/docdb/documents']).trim()).toBe(r.version);
  });

  it('a remote that refuses the update (a hook) is Forbidden with its reason, not retried as a race', async () => {
    const { tmp, remoteDir, open } = setup();
    writeFileSync(join(remoteDir, 'hooks/pre-receive'), '#!/bin/sh\necho "protected: read only" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const log = join(tmp.dir, 'calls.log');
    const store = open({ git: gitWrapper(tmp.dir, { log }), retryConcurrentWrites: 5 });
    const err = await store.put('k', 'v').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Forbidden);
    expect((err as Error).message).toMatch(/refused refs\/docdb\/documents: .*pre-receive hook declined/);
    expect(commands(log).filter((c) => c === 'push')).toHaveLength(1);
  });

  it('a missing remote is NotFound naming the remote', async () => {
    const { tmp } = setup();
    const store = new SubprocessGitRefStore({
      remote: pathToFileURL(join(tmp.dir, 'absent.git')).href,
      dir: join(tmp.dir, 'cache.git'),
      env: GIT_TEST_ENV,
    });
    cleanups.push(() => store.close());
    const err = await store.get('k').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFound);
    expect((err as Error).message).toMatch(/absent\.git was not found/);
  });
});

describe('SubprocessGitRefStore options', () => {
  it('rejects remotes that could inject options, carry credentials or run commands, before any I/O', () => {
    const cases: [string, RegExp][] = [
      ['--upload-pack=touch /tmp/pwned', /must not start with "-"/],
      ['-u x', /must not start with "-"/],
      ['ext::sh -c touch% /tmp/pwned', /remote helpers/],
      ['https://user:s3cr3t-pass@example.com/o/r.git', /must not contain a password or token/],
      ['ftp://example.com/x.git', /scheme ftp/],
      ['', /non-empty/],
    ];
    for (const [remote, message] of cases) {
      let err: unknown;
      try {
        new SubprocessGitRefStore({ remote, dir: '/nonexistent/cache' });
      } catch (e) {
        err = e;
      }
      expect(err, remote).toBeInstanceOf(InvalidConfig);
      expect((err as Error).message).toMatch(message);
      expect(JSON.stringify(err)).not.toContain('s3cr3t-pass');
    }
    expect(
      () => new SubprocessGitRefStore({ remote: 'http://example.com/o/r.git', token: 'tok_abc', dir: '/x' }),
    ).toThrow(/plain http/);
    expect(() => new SubprocessGitRefStore({ remote: 'file:///x', token: 'two words' })).toThrow(InvalidConfig);
  });

  it('defaults its cache to $XDG_CACHE_HOME/docdb/git/<hash>.git, one per remote', () => {
    const env = { XDG_CACHE_HOME: '/cache-home' };
    const a = new SubprocessGitRefStore({ remote: 'https://example.com/a.git', env });
    const b = new SubprocessGitRefStore({ remote: 'https://example.com/b.git', env });
    expect(a.dir).toMatch(/^\/cache-home\/docdb\/git\/[0-9a-f]{16}\.git$/);
    expect(b.dir).not.toBe(a.dir);
    expect(new SubprocessGitRefStore({ remote: 'https://example.com/a.git', ref: 'refs/x/y', env }).dir).toBe(a.dir);
  });
});
