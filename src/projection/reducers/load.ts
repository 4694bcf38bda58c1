/**
 * Loading a projection's reducer before any request is made. Custom reducers are JavaScript (or, on
 * Node >= 22.18, TypeScript) modules in the user's repository:
 *
 * ```js
 * // .github/docdb/issue-summary.js
 * export default function (issue, context) {
 *   if (issue.locked) return null; // skip
 *   return { title: issue.title, labels: issue.labels.map((l) => l.name), repo: context.repository };
 * }
 * ```
 *
 * A reducer runs with the job's permissions, so a module must be a file of the workspace (symbolic links
 * resolved first), and it runs in a worker thread of its own under a time limit (worker.ts).
 */
import { InvalidSpec } from '../../core/errors.js';
import type { ProjectionSpec } from '../spec/index.js';
import { BUILTINS } from './builtins.js';
import type { LoadedReducer, LoadReducerOptions } from './types.js';

type ReducerOf = Pick<ProjectionSpec, 'name' | 'reducer' | 'line' | 'lines'>;
export type ModuleSpec = { module: string; export: string };

/** How messages about a custom module name it: `spec:line: field`, and the error data. */
export interface ModuleWhere {
  where: string;
  /** What the module is, in messages (default `reducer module`; a check says `check module`). */
  what?: string;
  data: { file: string; line: number; field: string; projection: string };
}

/**
 * Resolve a projection's reducer and check it before any request is made. Custom modules are resolved
 * relative to `baseDir` (the directory of the spec file), must stay inside `confineTo` after symbolic
 * links are resolved, and are imported once into a worker thread of their own, where every call runs
 * under a time limit (see worker.ts). Call `close()` when the run ends.
 *
 * @example
 * const reducer = await loadReducer(projection, dirname(spec.file), spec.file, { confineTo: workspace });
 * try { await reducer.reduce(item, context); } finally { await reducer.close(); }
 */
export async function loadReducer(
  projection: ReducerOf,
  baseDir: string,
  specFile = 'spec',
  options: LoadReducerOptions = {},
): Promise<LoadedReducer> {
  const r = projection.reducer;
  if ('builtin' in r) return builtinReducer(projection, r.builtin, specFile);
  const field = `projections.${projection.name}.reducer.module`;
  const at: ModuleWhere = {
    where: `${specFile}:${projection.lines.reducer}: ${field}`,
    data: { file: specFile, line: projection.lines.reducer, field, projection: projection.name },
  };
  const { real, code } = await readModule(r, baseDir, at);
  await confine(real, r, options.confineTo ?? baseDir, at);
  return startModule(real, code, r, options, at);
}

function builtinReducer(projection: ReducerOf, name: string, specFile: string): LoadedReducer {
  const reduce = BUILTINS[name];
  if (!reduce) {
    throw new InvalidSpec(`unknown built-in reducer ${name}`, {
      file: specFile,
      line: projection.lines.reducer,
      field: `projections.${projection.name}.reducer`,
    });
  }
  return { reduce, fingerprint: `builtin:${name}:1`, close: async () => {} };
}

/**
 * The module's real path (symbolic links resolved) and its code (for the fingerprint); shared with check
 * modules (check.ts), which run under the same rules.
 *
 * @example
 * const { real } = await readModule({ module: './r.js', export: 'default' }, baseDir, at);
 */
export async function readModule(
  r: ModuleSpec,
  baseDir: string,
  at: ModuleWhere,
): Promise<{ real: string; code: Buffer }> {
  const { resolve, isAbsolute } = await import('node:path');
  const { readFile, realpath } = await import('node:fs/promises');
  const file = isAbsolute(r.module) ? r.module : resolve(baseDir, r.module);
  try {
    const real = await realpath(file);
    return { real, code: await readFile(real) };
  } catch {
    throw new InvalidSpec(
      `${at.where}: ${at.what ?? 'reducer module'} ${r.module} not found (looked for ${file}; paths are relative to the spec file's directory)`,
      at.data,
    );
  }
}

/**
 * A reducer runs with the job's permissions: only code from the checked-out repository may run, never a
 * file elsewhere on the runner reached by an absolute path, "..", or a symbolic link.
 *
 * @example
 * await confine(real, { module: './r.js', export: 'default' }, workspace, at); // throws InvalidSpec outside it
 */
export async function confine(real: string, r: ModuleSpec, rootDir: string, at: ModuleWhere): Promise<void> {
  const { resolve, sep } = await import('node:path');
  const { realpath } = await import('node:fs/promises');
  const root = await realpath(rootDir).catch(() => resolve(rootDir));
  if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
    throw new InvalidSpec(
      `${at.where}: ${at.what ?? 'reducer module'} ${r.module} resolves to ${real}, outside the workspace ${root}; ${at.what ?? 'reducer module'}s must be files inside the workspace (symbolic links are resolved first)`,
      { ...at.data, reason: 'outside-workspace' },
    );
  }
}

/** Import the module into its worker and check that the export is a function. */
async function startModule(
  real: string,
  code: Buffer,
  r: ModuleSpec,
  options: LoadReducerOptions,
  at: ModuleWhere,
): Promise<LoadedReducer> {
  const { pathToFileURL } = await import('node:url');
  const { createHash } = await import('node:crypto');
  const { startReducerWorker, DEFAULT_REDUCER_TIMEOUT_SECONDS } = await import('./worker.js');
  const timeoutMs = options.timeoutMs ?? DEFAULT_REDUCER_TIMEOUT_SECONDS * 1000;
  const handle = await startReducerWorker(pathToFileURL(real).href, r.export, timeoutMs);
  const loaded = handle.loaded;
  if ('loadError' in loaded) {
    await handle.close();
    const ts = /\.m?ts$/.test(real);
    throw new InvalidSpec(
      `${at.where}: cannot load reducer module ${r.module}: ${loaded.loadError}${ts ? ' (TypeScript modules need Node >= 22.18 with type stripping; the action runs on node24)' : ''}`,
      at.data,
    );
  }
  if (!loaded.ok) {
    await handle.close();
    const field = `projections.${at.data.projection}.reducer.export`;
    throw new InvalidSpec(
      `${at.data.file}:${at.data.line}: ${field}: module ${r.module} has no function export "${r.export}"${loaded.exported.length ? `; it exports ${loaded.exported.join(', ')}` : ''}`,
      { ...at.data, field },
    );
  }
  const fingerprint = `module:${createHash('sha256').update(code).digest('hex').slice(0, 16)}:${r.export}`;
  return { reduce: (item, context) => handle.reduce(item, context), fingerprint, close: () => handle.close() };
}
