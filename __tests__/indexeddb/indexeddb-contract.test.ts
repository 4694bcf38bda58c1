/**
 * IndexedDbRefStore runs the shared RefStore contract on fake-indexeddb. Each fixture gets its own
 * IDBFactory (a fresh, empty "browser profile"); the peer is a second connection to the same
 * database, as a second tab would open.
 */
import { IDBFactory } from 'fake-indexeddb';
import { IndexedDbRefStore } from '../../src/stores/indexeddb/index.js';
import { describeRefStoreContract } from '../contract/refstore-contract.js';

describeRefStoreContract(
  'IndexedDbRefStore (fake-indexeddb)',
  async () => {
    const indexedDB = new IDBFactory();
    let t = 1_700_000_000_000;
    // A deterministic clock that still moves, so commits of identical trees stay distinct.
    const now = () => (t += 1000);
    const opened: IndexedDbRefStore[] = [];
    const make = () => {
      const s = new IndexedDbRefStore({ indexedDB, name: 'contract', now });
      opened.push(s);
      return s;
    };
    return {
      store: make(),
      peer: make,
      otherSection: () => {
        const s = new IndexedDbRefStore({ indexedDB, name: 'contract', now, ref: 'refs/docdb/other' });
        opened.push(s);
        return s;
      },
      requestCount: () => 0,
      cleanup: async () => {
        for (const s of opened) await s.close();
      },
    };
  },
  { manyKeys: 2_000, largeValueBytes: 2 * 1024 * 1024 },
);
