/**
 * Interop between the stores and real git:
 * - a section written through RemoteApiRefStore to the emulator and exported to a bare repository
 *   reads identically through GitRefStore (same versions, same history, same bytes);
 * - a section written by GitRefStore or SubprocessGitRefStore, pushed, reads identically through
 *   `git cat-file`, `git ls-tree` and `git log` of real git;
 * - `git fsck --strict` passes on every repository written.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change, RefStore } from '../../src/core/refstore.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { GitRefStore, SubprocessGitRefStore } from '../../src/stores/git/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, git, steppingClock, tempDir } from './helpers.js';

const TOKEN = 'ghp_InteropToken0123456789abcdefABCDEF';
const REF = 'refs/docdb/documents';

/** A history with puts, a binary value, nested keys, a batch, an overwrite and deletes. */
const STEPS: { changes: Change[]; message?: string }[] = [
  { changes: [{ op: 'put', key: 'github/repo/octo/hello.json', value: '{"stars":1}\n' }], message: 'first' },
  {
    changes: [
      { op: 'put', key: 'bin/all', value: Uint8Array.from({ length: 256 }, (_, i) => i) },
      { op: 'put', key: 'deep/a/b/c.json', value: '{}' },
      { op: 'put', key: 'é/😀.json', value: 'unicode ✓' },
    ],
  },
  { changes: [{ op: 'put', key: 'github/repo/octo/hello.json', value: '{"stars":2}\n' }], message: 'second\n\nbody' },
  { changes: [{ op: 'delete', key: 'deep/a/b/c.json' }] },
  { changes: [{ op: 'put', key: 'empty', value: '' }] },
];

async function writeSteps(store: RefStore): Promise<string[]> {
  const versions: string[] = [];
  for (const s of STEPS) {
    const r = await store.commit(s.changes, s.message ? { message: s.message } : {});
    versions.push(r.version!);
  }
  return versions;
}

const KEYS = [...new Set(STEPS.flatMap((s) => s.changes.map((c) => c.key)))];

/** Everything a reader can observe of the section, at every version. */
async function observe(store: RefStore, versions: string[]) {
  const at = async (version?: string) => ({
    list: await store.list(version ? { version } : {}),
    values: await Promise.all(
      KEYS.map(async (k) => {
        const g = await store.get(k, version ? { version } : {});
        return g && { key: g.key, version: g.version, blobSha: g.blobSha, bytes: Buffer.from(g.value).toString('hex') };
      }),
    ),
  });
  const strip = <T extends object>(o: T) => {
    const { requests: _r, rateLimit: _l, ...rest } = o as T & { requests?: unknown; rateLimit?: unknown };
    return rest;
  };
  const states = [];
  for (const v of [undefined, ...versions]) {
    const s = await at(v);
    states.push({ list: strip(s.list), values: s.values });
  }
  const histories = await Promise.all(KEYS.map(async (k) => strip(await store.history(k))));
  return { head: await store.head(), states, histories };
}

let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir();
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

describe('interop', () => {
  it('a section written through the GitHub API (emulator) and exported reads identically through GitRefStore', async () => {
    em.state.createRepo('octo/interop');
    const remote = new RemoteApiRefStore({
      transport: fetchTransport(),
      apiUrl: em.url,
      owner: 'octo',
      repo: 'interop',
      token: TOKEN,
    });
    const versions = await writeSteps(remote);
    const dir = join(tmp.dir, 'exported.git');
    await em.exportBareRepo('octo/interop', dir);
    fsckStrict(dir);
    const local = new GitRefStore({ dir, env: GIT_TEST_ENV });
    try {
      const viaApi = await observe(remote, versions);
      const viaGit = await observe(local, versions);
      expect(viaGit.head).toBe(versions.at(-1));
      expect(viaGit).toEqual(viaApi);
      // And real git agrees on the versions of a key's history.
      expect(
        git(['--git-dir', dir, 'log', '--format=%H', REF, '--', 'github/repo/octo/hello.json']).trim().split('\n'),
      ).toEqual(viaGit.histories[0]!.entries.map((e) => e.version));
    } finally {
      await local.close();
    }
  });

  for (const kind of ['GitRefStore', 'SubprocessGitRefStore'] as const) {
    it(`a section written by ${kind}, pushed, reads identically through real git`, async () => {
      const sub = join(tmp.dir, kind);
      const origin = bareRepo(sub, 'origin.git');
      const store =
        kind === 'GitRefStore'
          ? new GitRefStore({ dir: origin, env: GIT_TEST_ENV, now: steppingClock() })
          : new SubprocessGitRefStore({
              remote: pathToFileURL(origin).href,
              dir: join(sub, 'cache.git'),
              env: GIT_TEST_ENV,
              now: steppingClock(),
            });
      try {
        const versions = await writeSteps(store);
        // Push the section on to another repository with plain git.
        const mirror = bareRepo(sub, 'mirror.git');
        git(['--git-dir', origin, 'push', '-q', mirror, `${REF}:${REF}`]);
        for (const d of [origin, mirror, ...(kind === 'SubprocessGitRefStore' ? [join(sub, 'cache.git')] : [])]) {
          fsckStrict(d);
        }
        const g = (args: string[]) => git(['--git-dir', mirror, ...args]);
        expect(g(['rev-parse', REF]).trim()).toBe(versions.at(-1));
        for (const v of versions) {
          const listed = (await store.list({ version: v })).entries;
          const lsTree = g(['ls-tree', '-r', '-z', v])
            .split('\0')
            .filter(Boolean)
            .map((l) => {
              const [meta, path] = l.split('\t');
              return { key: path!, blobSha: meta!.split(' ')[2]! };
            })
            .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
          expect(listed).toEqual(lsTree);
          for (const { key, blobSha } of listed) {
            const bytes = execFileSync('git', ['--git-dir', mirror, 'cat-file', 'blob', `${v}:${key}`], {
              env: GIT_TEST_ENV,
            });
            const got = (await store.get(key, { version: v }))!;
            expect(Buffer.from(got.value).equals(bytes)).toBe(true);
            expect(got.blobSha).toBe(blobSha);
          }
        }
        for (const key of KEYS) {
          const h = await store.history(key);
          const log = g(['log', '--format=%H%x00%P%x00%an%x00%ae%x00%B%x01', REF, '--', key])
            .split('\x01')
            .map((s) => s.replace(/^\n/, ''))
            .filter(Boolean)
            .map((rec) => {
              const [version, parents, name, email, message] = rec.split('\0');
              return { version, parents: parents ? parents.split(' ') : [], name, email, message };
            });
          expect(
            h.entries.map((e) => ({
              version: e.version,
              parents: e.parents,
              name: e.author.name,
              email: e.author.email,
              message: `${e.message.trimEnd()}\n`,
            })),
          ).toEqual(log.map((l) => ({ ...l, message: `${l.message!.trimEnd()}\n` })));
        }
      } finally {
        await store.close();
      }
    });
  }
});
