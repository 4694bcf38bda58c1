import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.ts'],
    // Every emulator a test starts validates each answer against GitHub's OpenAPI description (issue 3).
    setupFiles: ['__tests__/emulator/validate-all-emulators.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
