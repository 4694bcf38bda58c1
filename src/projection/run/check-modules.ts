/**
 * The `expect: { check: { module } }` modules of a run's projections, loaded before the first request under
 * the custom-reducer rules (reducers/check.ts: inside the workspace, a worker thread each, a time limit per
 * call), and closed when the run ends — as the reducers are.
 */
import type { CheckRunner } from '../../document/expect/types.js';
import { loadCheck } from '../reducers/check.js';
import type { ProjectionSpec } from '../spec/index.js';

export interface LoadedChecks {
  /** Projection name → its check runner (DocumentStore's `expect[].runCheck`). */
  runners: Map<string, CheckRunner>;
  close(): Promise<void>;
}

/**
 * Load every selected projection's check module (none: an empty map).
 *
 * @example
 * const checks = await loadChecks(spec.projections, { specFile: spec.file, baseDir, confineTo: workspace });
 * try { … expectationsOf(selected, checks.runners) … } finally { await checks.close(); }
 */
export async function loadChecks(
  selected: readonly ProjectionSpec[],
  options: { specFile: string; baseDir: string; confineTo: string; timeoutMs?: number },
): Promise<LoadedChecks> {
  const runners = new Map<string, CheckRunner>();
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    await Promise.all(closers.map((c) => c()));
  };
  try {
    for (const p of selected) {
      const module = p.expect?.check?.module;
      if (!module) continue;
      const line = p.lines.expect ?? p.line;
      const check = await loadCheck(module, {
        baseDir: options.baseDir,
        confineTo: options.confineTo,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        where: { file: options.specFile, line, field: `projections.${p.name}.expect.check.module`, projection: p.name },
      });
      closers.push(check.close);
      runners.set(p.name, check.runCheck);
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { runners, close };
}
