/**
 * A vitest `setupFiles` entry: every emulator any test starts (through src/emulator/index.ts) validates
 * every answer it writes against GitHub's OpenAPI description, and a violation fails the test
 * (./response-checks.ts). Test files that never start an emulator pay nothing: the schemas load on the
 * first `startEmulator`.
 */
import { vi } from 'vitest';
import type * as Emulator from '../../src/emulator/index.js';
import { withResponseChecks } from './response-checks.js';

vi.mock('../../src/emulator/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof Emulator>();
  return {
    ...original,
    startEmulator: async (options?: Emulator.EmulatorOptions) => {
      const { checkResponseRecord } = await import('./openapi-validator.js');
      return original.startEmulator(withResponseChecks(options, checkResponseRecord));
    },
  };
});
