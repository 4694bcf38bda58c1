/**
 * Process handling of the git stores: the one cat-file reader is restarted after it is killed, a
 * reader that keeps dying is reported, a missing git binary is a clear error, and an idle store
 * never keeps Node running.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitError } from '../../src/core/errors.js';
import { GitRefStore } from '../../src/stores/git/index.js';
import { bareRepo, GIT_TEST_ENV, tempDir } from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(extra: Partial<ConstructorParameters<typeof GitRefStore>[0]> = {}) {
  const tmp = tempDir();
  const dir = bareRepo(tmp.dir);
  const store = new GitRefStore({ dir, env: GIT_TEST_ENV, ...extra });
  cleanups.push(async () => {
    await store.close();
    tmp.cleanup();
  });
  return { tmp, dir, store };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('the cat-file reader', () => {
  it('is one long-lived process for every read', async () => {
    const { store } = setup();
    await store.commit(Array.from({ length: 20 }, (_, i) => ({ op: 'put' as const, key: `k${i}`, value: `${i}` })));
    const pid = await store.readerPid();
    expect(pid).toBeTypeOf('number');
    for (let i = 0; i < 20; i++) expect(text((await store.get(`k${i}`))!.value)).toBe(`${i}`);
    await store.list();
    expect(await store.readerPid()).toBe(pid);
  });

  it('is restarted after it is killed between reads', async () => {
    const { store } = setup();
    await store.put('a.json', 'A');
    const pid = (await store.readerPid())!;
    process.kill(pid, 'SIGKILL');
    expect(text((await store.get('a.json'))!.value)).toBe('A');
    const next = await store.readerPid();
    expect(next).toBeTypeOf('number');
    expect(next).not.toBe(pid);
    expect(isAlive(pid)).toBe(false);
  });

  it('re-sends the reads a killed process had not answered', async () => {
    const { store } = setup();
    const big = new Uint8Array(8 * 1024 * 1024).map((_, i) => (i * 7) & 0xff);
    await store.put('big.bin', big);
    await store.put('small', 's');
    const pid = (await store.readerPid())!;
    const reads = Promise.all([store.get('big.bin'), store.get('small'), store.list()] as const);
    process.kill(pid, 'SIGKILL');
    const [b, s, l] = await reads;
    expect(b!.value.length).toBe(big.length);
    expect(Buffer.from(b!.value).equals(Buffer.from(big))).toBe(true);
    expect(text(s!.value)).toBe('s');
    expect(l.entries.map((e) => e.key)).toEqual(['big.bin', 'small']);
  });

  it('a reader that dies again on the re-sent read fails with GitError', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    // A git whose cat-file always crashes; every other command is the real git.
    const wrapper = join(tmp.dir, 'git');
    writeFileSync(
      wrapper,
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = cat-file ] && { echo "fatal: simulated crash" >&2; exit 3; }; done\nexec git "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    const { store } = setup({ git: wrapper });
    const err = await store.get('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as GitError).data).toMatchObject({ reason: 'exit', exitCode: 3 });
    expect((err as Error).message).toMatch(/cat-file --batch exited with 3: fatal: simulated crash/);
  });
});

describe('a missing git binary', () => {
  it('is a GitError (missing-binary) that says how to fix it, for reads and writes', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const dir = bareRepo(tmp.dir);
    for (const options of [
      { git: join(tmp.dir, 'no-such-git') },
      { env: { ...GIT_TEST_ENV, PATH: join(tmp.dir, 'empty-path') } },
    ]) {
      const store = new GitRefStore({ dir, env: GIT_TEST_ENV, ...options });
      for (const op of [() => store.get('k'), () => store.put('k', 'v'), () => store.history('k')]) {
        const err = await op().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(GitError);
        expect((err as GitError).data.reason).toBe('missing-binary');
        expect((err as Error).message).toMatch(/could not be run \(ENOENT\): install git/);
      }
      await store.close();
    }
  });
});

describe('process lifetime', () => {
  it('an idle store does not keep Node running; a pending read and close() do', () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const dir = bareRepo(tmp.dir);
    const src = resolve(import.meta.dirname, '../../src/stores/git/index.ts');
    const run = (tail: string) => {
      const script = `
        import { GitRefStore } from ${JSON.stringify(src)};
        const store = new GitRefStore({ dir: ${JSON.stringify(dir)} });
        await store.put('k', 'value');
        const got = await store.get('k');
        console.log('read', new TextDecoder().decode(got.value), typeof (await store.readerPid()));
        ${tail}
      `;
      return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        env: GIT_TEST_ENV,
        encoding: 'utf8',
        timeout: 60_000,
      });
    };
    // No close(): the script must still end by itself once its last read has been answered.
    const idle = run('');
    expect(idle.error, 'the script did not exit by itself').toBeUndefined();
    expect(idle.stderr).toBe('');
    expect(idle.stdout.trim()).toBe('read value number');
    expect(idle.status).toBe(0);
    // close() of an idle (unref'd) reader is awaited to the end: exit code 13 would mean Node gave up on it.
    const closed = run("await new Promise((r) => setTimeout(r, 20)); await store.close(); console.log('closed');");
    expect(closed.stderr).toBe('');
    expect(closed.stdout.trim().split('\n')).toEqual(['read value number', 'closed']);
    expect(closed.status).toBe(0);
  });
});
