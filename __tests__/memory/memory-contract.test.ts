/** MemoryRefStore runs the shared RefStore contract; peers share one ObjectDb (one "repository"). */
import { ObjectDb } from '../../src/core/git/object-db.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { describeRefStoreContract } from '../contract/refstore-contract.js';

describeRefStoreContract('MemoryRefStore', async () => {
  const db = new ObjectDb();
  let t = 1_700_000_000_000;
  // A deterministic clock that still moves, so commits of identical trees stay distinct.
  const now = () => (t += 1000);
  return {
    store: new MemoryRefStore({ db, now }),
    peer: () => new MemoryRefStore({ db, now }),
    otherSection: () => new MemoryRefStore({ db, now, ref: 'refs/docdb/other' }),
    requestCount: () => 0,
  };
});
