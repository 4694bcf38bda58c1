/**
 * `expect: { check: { module } }` (issue 38): a module of the workspace given a write's documents of one
 * type that returns problems. It runs under the custom-reducer rules — a file inside the workspace once
 * symbolic links are resolved (load.ts `confine`), imported into a worker thread of its own, each call
 * under a time limit (worker.ts) — because like a reducer it runs with the job's permissions.
 *
 * ```js
 * // checks/no-empty-titles.mjs
 * export default function (documents, context) {
 *   return documents.filter((d) => !d.data.title).map((d) => ({ id: d.id, field: 'data.title', message: 'empty title' }));
 * }
 * ```
 */
import { InvalidSpec } from '../../core/errors.js';
import type { CheckRunner, ExpectViolation } from '../../document/expect/types.js';
import { deriveKey } from '../../document/identity.js';
import { confine, type ModuleWhere, readModule } from './load.js';

/** Longest message kept of one problem a check returns. */
const MAX_MESSAGE = 500;

export interface LoadCheckOptions {
  /** Directory the module path is relative to (the spec file's). */
  baseDir: string;
  /** Directory the module must stay inside after symbolic links are resolved (the workspace; default `baseDir`). */
  confineTo?: string;
  /** Milliseconds one call may take (default: the reducer default, 30 s). */
  timeoutMs?: number;
  /** For messages: the spec file, its line and field (`projections.issues.expect.check.module`). */
  where?: { file: string; line: number; field: string; projection: string };
}

/**
 * Load a check module under the custom-reducer rules; `runCheck` is what DocumentStore's `expect` option
 * takes. Call `close()` when the run ends.
 *
 * @example
 * const check = await loadCheck('./checks/titles.mjs', { baseDir: dirname(spec.file), confineTo: workspace });
 * try {
 *   await docs.putMany(documents, { expect: [{ namespace, type, expectations, runCheck: check.runCheck }] });
 * } finally { await check.close(); }
 */
export async function loadCheck(
  module: string,
  options: LoadCheckOptions,
): Promise<{ runCheck: CheckRunner; close(): Promise<void> }> {
  const data = options.where ?? { file: 'spec', line: 0, field: 'expect.check.module', projection: '' };
  const at: ModuleWhere = { where: `${data.file}:${data.line}: ${data.field}`, what: 'check module', data };
  const r = { module, export: 'default' };
  const { real } = await readModule(r, options.baseDir, at);
  await confine(real, r, options.confineTo ?? options.baseDir, at);
  const { pathToFileURL } = await import('node:url');
  const { startReducerWorker, DEFAULT_REDUCER_TIMEOUT_SECONDS } = await import('./worker.js');
  const handle = await startReducerWorker(
    pathToFileURL(real).href,
    'default',
    options.timeoutMs ?? DEFAULT_REDUCER_TIMEOUT_SECONDS * 1000,
  );
  if ('loadError' in handle.loaded || !handle.loaded.ok) {
    await handle.close();
    const why = 'loadError' in handle.loaded ? handle.loaded.loadError : 'it has no default export that is a function';
    throw new InvalidSpec(`${at.where}: cannot load check module ${module}: ${why}`, data);
  }
  const runCheck: CheckRunner = async (documents, context) => {
    let returned: unknown;
    try {
      returned = await handle.reduce(documents, context as never);
    } catch (e) {
      return [
        {
          expectation: 'check',
          message: `check module ${module} failed: ${(e as Error).message}`.slice(0, MAX_MESSAGE),
        },
      ];
    }
    return problemsOf(returned, module, context);
  };
  return { runCheck, close: () => handle.close() };
}

/**
 * What a check returned, as violations: a list of strings or `{ id?, key?, field?, message }` (an `id` of the
 * checked type becomes its key); anything else is itself a problem.
 *
 * @example
 * problemsOf([{ id: 'o/r', message: 'bad' }], './c.mjs', { namespace: 'github', type: 'repo' });
 * // [{ expectation: 'check', key: 'github/repo/o/r.json', message: 'bad' }]
 */
export function problemsOf(
  returned: unknown,
  module: string,
  t: { namespace: string; type: string },
): ExpectViolation[] {
  if (returned === undefined || returned === null) return [];
  if (!Array.isArray(returned)) {
    return [
      { expectation: 'check', message: `check module ${module} returned ${typeof returned}, not a list of problems` },
    ];
  }
  return returned.map((p): ExpectViolation => {
    if (typeof p !== 'object' || p === null) return { expectation: 'check', message: String(p).slice(0, MAX_MESSAGE) };
    const o = p as { id?: unknown; key?: unknown; field?: unknown; message?: unknown };
    const v: ExpectViolation = {
      expectation: 'check',
      message: String(o.message ?? 'a problem').slice(0, MAX_MESSAGE),
    };
    const key = typeof o.key === 'string' ? o.key : typeof o.id === 'string' ? keyOf(t, o.id) : undefined;
    if (key) v.key = key;
    if (typeof o.field === 'string') v.field = o.field.slice(0, 200);
    return v;
  });
}

function keyOf(t: { namespace: string; type: string }, id: string): string | undefined {
  try {
    return deriveKey({ namespace: t.namespace, doc_type: t.type, id });
  } catch {
    return undefined;
  }
}
