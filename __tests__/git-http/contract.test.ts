/**
 * GitHttpRefStore runs the shared RefStore contract against git's own `git http-backend` over HTTP
 * (Basic auth, pushes on). Every writer is its own store with its own cache, as writers on other
 * machines would be; the served repository must pass `git fsck --strict` after each test.
 */
import { describeRefStoreContract } from '../contract/refstore-contract.js';
import { gitHttpFixture } from './helpers.js';

describeRefStoreContract(
  'GitHttpRefStore (git http-backend)',
  async () => {
    const fx = await gitHttpFixture();
    return {
      store: fx.store(),
      peer: () => fx.store(),
      otherSection: () => fx.store({ ref: 'refs/docdb/other' }),
      requestCount: () => fx.server.requests.length,
      cleanup: () => fx.cleanup(),
    };
  },
  // Each request runs a git process on the server: smaller scale runs keep the suite fast; the
  // 10,000-key batch is measured in bench/.
  { manyKeys: 2_000, largeValueBytes: 2 * 1024 * 1024, propertyRuns: 4 },
);
