/**
 * The built-in reducers. They keep only fields that change when the thing itself changes (no download
 * counters, no API URLs), so an unchanged source reproduces byte-identical documents and a re-run commits
 * nothing.
 */
import type { Reducer } from './types.js';

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

/**
 * Issue: number, title, state, labels, assignees, milestone, author, comment count and timestamps.
 *
 * @example
 * issueReducer({ number: 7, title: 'Bug', state: 'open', labels: [{ name: 'bug' }] }).labels; // ['bug']
 */
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

/**
 * Pull request: number, title, state, draft, merged, base/head, labels, reviewers and timestamps.
 *
 * @example
 * pullReducer({ number: 3, merged_at: '2024-01-31T12:00:00Z', base: { ref: 'main' } }).merged; // true
 */
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

/**
 * Release: tag, name, draft/prerelease flags, target, author, dates and assets (without download counts).
 *
 * @example
 * releaseReducer({ tag_name: 'v1.0.0', assets: [{ name: 'a.tgz', size: 10, download_count: 99 }] }).assets; // [{ name: 'a.tgz', size: 10, contentType: null }]
 */
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

/**
 * `raw`: the item as GitHub returned it (large, and changes whenever any field does).
 *
 * @example
 * rawReducer(42); // { value: 42 }
 */
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
