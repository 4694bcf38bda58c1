/**
 * `startEmulator` for tests: the emulator of src/emulator with every answer validated against GitHub's
 * OpenAPI description (./response-checks.ts). Other test areas get the same check by importing
 * `startEmulator` from here, or suite-wide with ./validate-all-emulators.ts as a vitest `setupFiles` entry.
 */
import {
  type EmulatorHandle,
  type EmulatorOptions,
  startEmulator as startPlainEmulator,
} from '../../src/emulator/index.js';
import { checkResponseRecord } from './openapi-validator.js';
import { withResponseChecks } from './response-checks.js';

export { responseChecks } from './response-checks.js';

export function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  return startPlainEmulator(withResponseChecks(options, checkResponseRecord));
}
