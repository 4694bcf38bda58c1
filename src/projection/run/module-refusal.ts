/**
 * Refusing code from the workspace (issue 39): under `pull_request_target` a workflow runs with the base
 * repository's write token and secrets while the workspace may hold a fork's files, so `mode: review` must
 * not import a custom reducer or an `expect: { check: { module } }` from it (GitHub Security Lab's "pwn
 * request"). Built-in reducers are docdb's own code and still run. Checked before any module is read.
 */
import { InvalidSpec } from '../../core/errors.js';
import type { ProjectionSpec } from '../spec/index.js';

/**
 * Throw `InvalidSpec` on the first selected projection that names a module from the workspace (its reducer
 * or its check), on that line of the spec, saying `reason` (why modules are refused here and what to do).
 *
 * @example
 * refuseWorkspaceModules(spec.projections, spec.file, 'under pull_request_target; use pull_request + review-publish');
 */
export function refuseWorkspaceModules(selected: readonly ProjectionSpec[], specFile: string, reason: string): void {
  for (const p of selected) {
    const found =
      'module' in p.reducer
        ? {
            field: `projections.${p.name}.reducer.module`,
            line: p.lines.reducer,
            what: 'reducer module',
            module: p.reducer.module,
          }
        : p.expect?.check?.module
          ? {
              field: `projections.${p.name}.expect.check.module`,
              line: p.lines.expect ?? p.line,
              what: 'check module',
              module: p.expect.check.module,
            }
          : undefined;
    if (!found) continue;
    throw new InvalidSpec(
      `${specFile}:${found.line}: ${found.field}: the ${found.what} ${found.module} is not loaded: ${reason}`,
      { file: specFile, line: found.line, field: found.field, projection: p.name, reason: 'workspace-module-refused' },
    );
  }
}
