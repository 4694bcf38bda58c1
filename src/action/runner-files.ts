/**
 * The runner's command files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) are written when the run is done — after
 * the commit. Check they can be written before anything else, so a step never commits and then fails to
 * report it. See https://docs.github.com/actions/reference/workflows-and-actions/workflow-commands#setting-an-output-parameter
 */
import { InvalidConfig } from '../core/errors.js';

/**
 * Fail when a command file the runner named cannot be appended to (missing directory, a directory, read-only).
 *
 * @example
 * await checkRunnerFiles(process.env); // before runAction
 */
export async function checkRunnerFiles(env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const { open } = await import('node:fs/promises');
  for (const name of ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY']) {
    const path = env[name];
    if (!path) continue;
    try {
      // Opening for append creates nothing new a runner would not create itself and changes no content.
      const handle = await open(path, 'a');
      await handle.close();
    } catch (e) {
      throw new InvalidConfig(
        name,
        `${name} (${path}) cannot be written (${(e as { code?: string }).code ?? (e as Error).message}); the step outputs could not be reported, so nothing was done`,
      );
    }
  }
}
