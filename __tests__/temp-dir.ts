/** Temporary directories for tests that remove themselves. */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A new directory under the system temp dir, removed (even if a test made it read-only) when the current
 * test finishes. Call it inside a test.
 *
 * @example
 * const dir = tempDir('docdb-files-');
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
