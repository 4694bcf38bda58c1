import { defineConfig } from 'vitest/config';

/** Only for contract-catches-mutants.test.ts: runs the contract against deliberately broken stores. */
export default defineConfig({
  test: {
    root: new URL('../../../', import.meta.url).pathname,
    include: ['__tests__/contract/mutants/*.contract.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 30_000,
  },
});
