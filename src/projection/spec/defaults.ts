/**
 * What a projection gets when the spec leaves something out: the identity and reducer of each source, the
 * template variables each source provides, and the built-in reducers with the sources each accepts
 * (reducers/builtins.ts holds the functions themselves; the spec only needs their names).
 */
import { SOURCE_TYPES, type SourceType } from './source-types.js';

/**
 * Template variables each source provides for `identity.id`. Every source also provides `{item.<path>}`,
 * a field of the source item (e.g. `{item.id}`, `{item.head_commit.id}`).
 */
export const SOURCE_VARIABLES: Record<SourceType, readonly string[]> = {
  repository: ['owner', 'name', 'repo', 'defaultBranch'],
  issues: ['owner', 'name', 'repo', 'number', 'id'],
  pulls: ['owner', 'name', 'repo', 'number', 'id'],
  releases: ['owner', 'name', 'repo', 'tag', 'id'],
  rest: ['owner', 'name', 'repo', 'index'],
  http: ['url', 'index'],
  files: ['path', 'file', 'dir', 'name', 'index'],
};

/**
 * Defaults per source when `identity` or `reducer` leave a field out. `type: undefined` means "the
 * projection's name"; `id: undefined` means the spec must give `identity.id` (there is no natural key).
 */
export const SOURCE_DEFAULTS: Record<
  SourceType,
  { namespace: string; type: string | undefined; id: string | undefined; reducer: string }
> = {
  repository: { namespace: 'github', type: 'repo', id: '{owner}/{name}', reducer: 'repository' },
  issues: { namespace: 'github', type: 'issue', id: '{repo}#{number}', reducer: 'issue' },
  pulls: { namespace: 'github', type: 'pull', id: '{repo}#{number}', reducer: 'pull' },
  releases: { namespace: 'github', type: 'release', id: '{repo}@{tag}', reducer: 'release' },
  rest: { namespace: 'github', type: undefined, id: undefined, reducer: 'raw' },
  http: { namespace: 'data', type: undefined, id: undefined, reducer: 'raw' },
  files: { namespace: 'data', type: undefined, id: '{file}', reducer: 'raw' },
};

/** Built-in reducers and the sources each accepts. `raw` stores the source item as it was read. */
export const BUILTIN_REDUCERS: Record<string, readonly SourceType[]> = {
  repository: ['repository'],
  issue: ['issues'],
  pull: ['pulls'],
  release: ['releases'],
  raw: SOURCE_TYPES,
};
