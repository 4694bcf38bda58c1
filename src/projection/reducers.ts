/**
 * Reducers turn one source item into a document's `data` (a JSON object), or `null` to skip the item.
 * Built-ins keep only fields that change when the thing itself changes (no download counters, no
 * API URLs), so an unchanged source reproduces byte-identical documents and a re-run commits nothing.
 *
 * Custom reducers are JavaScript (or, on Node >= 22.18, TypeScript) modules in the user's repository:
 *
 * ```js
 * // .github/docdb/issue-summary.js
 * export default function (issue, context) {
 *   if (issue.locked) return null; // skip
 *   return { title: issue.title, labels: issue.labels.map((l) => l.name), repo: context.repository };
 * }
 * ```
 */
import { InvalidSpec } from '../core/errors.js';
import type { ProjectionSpec, ReducerSpec, SourceType } from './spec/index.js';

/** What a reducer gets besides the item. */
export interface ReducerContext {
  /** Projection name from the spec. */
  projection: string;
  /** Source type (`repository`, `issues`, `pulls`, `releases`). */
  source: SourceType;
  /** Repository the item came from, `owner/name`. */
  repository: string;
  owner: string;
  name: string;
  /** The document identity the result will be stored under. */
  identity: { namespace: string; type: string; id: string };
}

export type ReducerResult = Record<string, unknown> | null | undefined;
/** A reducer: source item → document data, or null/undefined to skip the item. May be async. */
export type Reducer = (item: unknown, context: ReducerContext) => ReducerResult | Promise<ReducerResult>;

type Obj = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const login = (u: unknown): string | null => str((u as Obj | null | undefined)?.login);
const labelNames = (labels: unknown): string[] =>
  Array.isArray(labels)
    ? labels
        .map((l) => (typeof l === 'string' ? l : (str((l as Obj)?.name) ?? '')))
        .filter((l) => l !== '')
        .sort()
    : [];
const logins = (users: unknown): string[] =>
  Array.isArray(users)
    ? users
        .map(login)
        .filter((l): l is string => !!l)
        .sort()
    : [];

/**
 * The seed's repository reducer: `fullName`, `defaultBranch`, `description`, and `branches` as
 * `{ name: 'refs/heads/<branch>', sha }` sorted by name.
 *
 * @example
 * repositoryReducer({ repository: { full_name: 'o/r', default_branch: 'main' }, branches: [{ ref: 'refs/heads/main', object: { sha } }] });
 */
export function repositoryReducer(item: unknown): Obj {
  const { repository, branches } = item as { repository: Obj; branches: Obj[] };
  return {
    fullName: str(repository.full_name),
    defaultBranch: str(repository.default_branch),
    description: str(repository.description),
    branches: (branches ?? [])
      .map((b) => ({ name: String(b.ref), sha: String((b.object as Obj | undefined)?.sha ?? '') }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

/** Issue: number, title, state, labels, assignees, milestone, author, comment count and timestamps. */
export function issueReducer(item: unknown): Obj {
  const i = item as Obj;
  return {
    number: i.number,
    title: str(i.title),
    state: str(i.state),
    stateReason: str(i.state_reason),
    locked: i.locked === true,
    author: login(i.user),
    labels: labelNames(i.labels),
    assignees: logins(i.assignees),
    milestone: str((i.milestone as Obj | null | undefined)?.title),
    comments: typeof i.comments === 'number' ? i.comments : 0,
    createdAt: str(i.created_at),
    updatedAt: str(i.updated_at),
    closedAt: str(i.closed_at),
    url: str(i.html_url),
  };
}

/** Pull request: number, title, state, draft, merged, base/head, labels, reviewers and timestamps. */
export function pullReducer(item: unknown): Obj {
  const p = item as Obj;
  const base = p.base as Obj | undefined;
  const head = p.head as Obj | undefined;
  return {
    number: p.number,
    title: str(p.title),
    state: str(p.state),
    draft: p.draft === true,
    merged: typeof p.merged_at === 'string',
    author: login(p.user),
    base: str(base?.ref),
    head: str(head?.ref),
    headSha: str(head?.sha),
    labels: labelNames(p.labels),
    assignees: logins(p.assignees),
    requestedReviewers: logins(p.requested_reviewers),
    createdAt: str(p.created_at),
    updatedAt: str(p.updated_at),
    closedAt: str(p.closed_at),
    mergedAt: str(p.merged_at),
    url: str(p.html_url),
  };
}

/** Release: tag, name, draft/prerelease flags, target, author, dates and assets (without download counts). */
export function releaseReducer(item: unknown): Obj {
  const r = item as Obj;
  return {
    tag: str(r.tag_name),
    name: str(r.name),
    draft: r.draft === true,
    prerelease: r.prerelease === true,
    target: str(r.target_commitish),
    author: login(r.author),
    createdAt: str(r.created_at),
    publishedAt: str(r.published_at),
    body: str(r.body),
    assets: Array.isArray(r.assets)
      ? (r.assets as Obj[]).map((a) => ({ name: str(a.name), size: a.size ?? null, contentType: str(a.content_type) }))
      : [],
    url: str(r.html_url),
  };
}

/** `raw`: the item as GitHub returned it (large, and changes whenever any field does). */
export function rawReducer(item: unknown): Obj {
  return (item && typeof item === 'object' ? item : { value: item }) as Obj;
}

/** Built-in reducers by name. */
export const BUILTINS: Record<string, Reducer> = {
  repository: repositoryReducer,
  issue: issueReducer,
  pull: pullReducer,
  release: releaseReducer,
  raw: rawReducer,
};

export interface LoadedReducer {
  reduce: Reducer;
  /** A fingerprint of the reducer's code (built-in name, or a hash of the module file) for incremental state. */
  fingerprint: string;
  /** Stops the reducer's worker thread (custom modules); a no-op for built-ins. */
  close(): Promise<void>;
}

export interface LoadReducerOptions {
  /**
   * Directory reducer modules must stay inside after symbolic links are resolved (the Action: the
   * workspace). Default: `baseDir`.
   */
  confineTo?: string;
  /** Milliseconds one reducer call may take before the run fails (default 30 s). */
  timeoutMs?: number;
}

/**
 * Resolve a projection's reducer and check it before any request is made. Custom modules are resolved
 * relative to `baseDir` (the directory of the spec file), must stay inside `confineTo` after symbolic
 * links are resolved, and are imported once into a worker thread of their own, where every call runs
 * under a time limit (see reducer-worker.ts). Call `close()` when the run ends.
 *
 * @example
 * const reducer = await loadReducer(projection, dirname(spec.file), spec.file, { confineTo: workspace });
 * try { await reducer.reduce(item, context); } finally { await reducer.close(); }
 */
export async function loadReducer(
  projection: Pick<ProjectionSpec, 'name' | 'reducer' | 'line' | 'lines'>,
  baseDir: string,
  specFile = 'spec',
  options: LoadReducerOptions = {},
): Promise<LoadedReducer> {
  const r: ReducerSpec = projection.reducer;
  if ('builtin' in r) {
    const reduce = BUILTINS[r.builtin];
    if (!reduce) {
      throw new InvalidSpec(`unknown built-in reducer ${r.builtin}`, {
        file: specFile,
        line: projection.lines.reducer,
        field: `projections.${projection.name}.reducer`,
      });
    }
    return { reduce, fingerprint: `builtin:${r.builtin}:1`, close: async () => {} };
  }
  const { resolve, isAbsolute, sep } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const { readFile, realpath } = await import('node:fs/promises');
  const { createHash } = await import('node:crypto');
  const field = `projections.${projection.name}.reducer.module`;
  const where = `${specFile}:${projection.lines.reducer}: ${field}`;
  const data = { file: specFile, line: projection.lines.reducer, field, projection: projection.name };
  const file = isAbsolute(r.module) ? r.module : resolve(baseDir, r.module);
  let real: string;
  let code: Buffer;
  try {
    real = await realpath(file);
    code = await readFile(real);
  } catch {
    throw new InvalidSpec(
      `${where}: reducer module ${r.module} not found (looked for ${file}; paths are relative to the spec file's directory)`,
      data,
    );
  }
  // A reducer runs with the job's permissions: only code from the checked-out repository may run, never a
  // file elsewhere on the runner reached by an absolute path, "..", or a symbolic link.
  const rootDir = options.confineTo ?? baseDir;
  const root = await realpath(rootDir).catch(() => resolve(rootDir));
  if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
    throw new InvalidSpec(
      `${where}: reducer module ${r.module} resolves to ${real}, outside the workspace ${root}; reducer modules must be files inside the workspace (symbolic links are resolved first)`,
      { ...data, reason: 'outside-workspace' },
    );
  }
  const { startReducerWorker, DEFAULT_REDUCER_TIMEOUT_SECONDS } = await import('./reducer-worker.js');
  const timeoutMs = options.timeoutMs ?? DEFAULT_REDUCER_TIMEOUT_SECONDS * 1000;
  const handle = await startReducerWorker(pathToFileURL(real).href, r.export, timeoutMs);
  const loaded = handle.loaded;
  if ('loadError' in loaded) {
    await handle.close();
    const ts = /\.m?ts$/.test(real);
    throw new InvalidSpec(
      `${where}: cannot load reducer module ${r.module}: ${loaded.loadError}${ts ? ' (TypeScript modules need Node >= 22.18 with type stripping; the action runs on node24)' : ''}`,
      data,
    );
  }
  if (!loaded.ok) {
    await handle.close();
    throw new InvalidSpec(
      `${specFile}:${projection.lines.reducer}: projections.${projection.name}.reducer.export: module ${r.module} has no function export "${r.export}"${loaded.exported.length ? `; it exports ${loaded.exported.join(', ')}` : ''}`,
      { ...data, field: `projections.${projection.name}.reducer.export` },
    );
  }
  const fingerprint = `module:${createHash('sha256').update(code).digest('hex').slice(0, 16)}:${r.export}`;
  return { reduce: (item, context) => handle.reduce(item, context), fingerprint, close: () => handle.close() };
}
