/**
 * GitRefStore runs the shared RefStore contract on a real bare repository; every peer is a separate
 * store (its own cat-file process) on the same repository, as another process would be. After each
 * test the repository must pass `git fsck --strict`.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GitRefStore, SubprocessGitRefStore } from '../../src/stores/git/index.js';
import { describeRefStoreContract } from '../contract/refstore-contract.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, steppingClock, tempDir } from './helpers.js';

describeRefStoreContract('GitRefStore (bare repository)', async () => {
  const tmp = tempDir();
  const dir = bareRepo(tmp.dir);
  const now = steppingClock();
  const stores: (GitRefStore | SubprocessGitRefStore)[] = [];
  const make = () => {
    const s = new GitRefStore({ dir, env: GIT_TEST_ENV, now, retryConcurrentWrites: 20 });
    stores.push(s);
    return s;
  };
  return {
    store: make(),
    peer: make,
    // The same repository as a `file://` remote of the subprocess store (its own cache repository).
    foreignPeer: () => {
      const s = new SubprocessGitRefStore({
        remote: pathToFileURL(dir).href,
        dir: join(tmp.dir, `cache-${stores.length}.git`),
        env: GIT_TEST_ENV,
        now,
      });
      stores.push(s);
      return s;
    },
    otherSection: () => {
      const s = new GitRefStore({ dir, env: GIT_TEST_ENV, now, ref: 'refs/docdb/other' });
      stores.push(s);
      return s;
    },
    requestCount: () => 0,
    cleanup: async () => {
      await Promise.all(stores.map((s) => s.close()));
      fsckStrict(dir);
      tmp.cleanup();
    },
  };
});
