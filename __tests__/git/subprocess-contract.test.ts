/**
 * SubprocessGitRefStore runs the shared RefStore contract against a bare repository reached as a
 * `file://` remote; every peer has its own cache repository, as a writer on another machine would.
 * The remote and every cache must pass `git fsck --strict` after each test.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SubprocessGitRefStore } from '../../src/stores/git/index.js';
import { describeRefStoreContract } from '../contract/refstore-contract.js';
import { bareRepo, fsckStrict, GIT_TEST_ENV, steppingClock, tempDir } from './helpers.js';

describeRefStoreContract(
  'SubprocessGitRefStore (file:// remote)',
  async () => {
    const tmp = tempDir();
    const remoteDir = bareRepo(tmp.dir, 'remote.git');
    const remote = pathToFileURL(remoteDir).href;
    const now = steppingClock();
    const stores: SubprocessGitRefStore[] = [];
    const make = () => {
      const dir = join(tmp.dir, `cache-${stores.length}.git`);
      const s = new SubprocessGitRefStore({ remote, dir, env: GIT_TEST_ENV, now, retryConcurrentWrites: 20 });
      stores.push(s);
      return s;
    };
    return {
      store: make(),
      peer: make,
      // Shares the main store's cache repository, so the foreign commit is present locally and only
      // the reachability check can reject it.
      otherSection: () => {
        const s = new SubprocessGitRefStore({
          remote,
          dir: stores[0]!.dir,
          env: GIT_TEST_ENV,
          now,
          ref: 'refs/docdb/other',
        });
        stores.push(s);
        return s;
      },
      requestCount: () => 0,
      cleanup: async () => {
        await Promise.all(stores.map((s) => s.close()));
        fsckStrict(remoteDir);
        // A cache exists once its store did any I/O (rejected input never creates one).
        for (const s of stores) if (existsSync(s.dir)) fsckStrict(s.dir);
        tmp.cleanup();
      },
    };
  },
  // Every operation is a few git processes (ls-remote, fetch, push): smaller scale runs keep the
  // suite fast; the full 10,000-key batch is measured in bench/.
  { manyKeys: 1_000, largeValueBytes: 1024 * 1024, propertyRuns: 3 },
);
