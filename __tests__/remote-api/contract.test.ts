/** The shared RefStore contract for RemoteApiRefStore over every transport, against the emulator. */
import { afterAll, beforeAll } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { describeRefStoreContract } from '../contract/refstore-contract.js';
import { emulator, freshRepo, store, type TransportKind } from './helpers.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await emulator();
});
afterAll(async () => {
  await em?.stop();
});

const KINDS: { kind: TransportKind; manyKeys: number; largeValueBytes: number }[] = [
  { kind: 'fetch', manyKeys: 10_000, largeValueBytes: 5 * 1024 * 1024 },
  { kind: 'octokit', manyKeys: 2_000, largeValueBytes: 2 * 1024 * 1024 },
  { kind: 'host', manyKeys: 2_000, largeValueBytes: 2 * 1024 * 1024 },
  { kind: 'recording', manyKeys: 1_000, largeValueBytes: 1024 * 1024 },
];

for (const { kind, manyKeys, largeValueBytes } of KINDS) {
  describeRefStoreContract(
    `RemoteApiRefStore over ${kind} transport (emulator)`,
    async () => {
      const repo = freshRepo(em);
      const ref = 'refs/docdb/documents';
      const start = em.requests.length;
      return {
        store: store(em, repo, { ref, retryConcurrentWrites: 10 }, kind),
        peer: () => store(em, repo, { ref, retryConcurrentWrites: 10 }, kind),
        // Another transport on the same repository and section.
        foreignPeer: () => store(em, repo, { ref }, kind === 'fetch' ? 'octokit' : 'fetch'),
        otherSection: () => store(em, repo, { ref: 'refs/docdb/other' }, kind),
        requestCount: () => em.requests.length - start,
      };
    },
    { manyKeys, largeValueBytes },
  );
}
