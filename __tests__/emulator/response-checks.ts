/**
 * Validate EVERY answer an emulator writes, through its `onResponse` hook, against GitHub's OpenAPI
 * description (./openapi-validator.ts) — whoever the client is (fetch, Octokit, raw node:http, a
 * RefStore, the Action). A violation fails the test that caused it (in `afterEach`); the answer
 * itself is sent unchanged. This module is light on purpose (the schemas load only where an emulator
 * starts): the checker, `checkResponseRecord` of ./openapi-validator.ts, is passed in.
 */
import { afterEach } from 'vitest';
import type { EmulatorOptions, ResponseRecord } from '../../src/emulator/index.js';

/** Answers validated so far in this test file, and the violations not yet reported. */
export const responseChecks = { validated: 0, violations: [] as string[] };

const CHECKED = Symbol.for('docdb.test.responseChecks');

/**
 * `options` with an `onResponse` that validates every answer with `check` (true when it validated,
 * false when it skipped the answer, throws on a violation), then calls the caller's own hook.
 */
export function withResponseChecks(
  options: EmulatorOptions = {},
  check: (r: ResponseRecord) => boolean,
): EmulatorOptions {
  const own = options.onResponse;
  if (own && (own as { [CHECKED]?: boolean })[CHECKED]) return options;
  const onResponse: NonNullable<EmulatorOptions['onResponse']> = (r) => {
    try {
      if (check(r)) responseChecks.validated++;
    } catch (err) {
      responseChecks.violations.push((err as Error).message);
    }
    own?.(r);
  };
  Object.defineProperty(onResponse, CHECKED, { value: true });
  return { ...options, onResponse };
}

afterEach(() => {
  const found = responseChecks.violations.splice(0);
  if (found.length > 0) {
    throw new Error(
      `the emulator sent ${found.length} answer(s) that violate GitHub's OpenAPI description:\n${found.join('\n')}`,
    );
  }
});
