/**
 * What a source is once the spec is validated: the source types, the `SourceSpec` union the readers in
 * sources/ receive, and the filters of `owner/*` selections. A leaf module: the schema (source-schema.ts),
 * the defaults and every reader depend on it, it depends on nothing.
 */

/** Built-in sources. */
export const SOURCE_TYPES = ['repository', 'issues', 'pulls', 'releases', 'rest', 'http', 'files'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** Sources that read GitHub repositories listed in `repositories` (`owner/name` or `owner/*`). */
export const REPOSITORY_SOURCES: readonly SourceType[] = ['repository', 'issues', 'pulls', 'releases', 'rest'];

/** Filters on `owner/*` selections, and the paging limit every GitHub list source takes. */
export interface SelectionFilters {
  archived?: boolean | 'only';
  forks?: boolean | 'only';
  visibility?: 'all' | 'public' | 'private';
  topics?: string[];
  /** Most pages one listing may read (default 1,000). */
  'max-pages'?: number;
}

/** Source after validation and defaults (`repositories` resolved for repository sources). */
export type SourceSpec =
  | ({ type: 'repository'; repositories: string[]; api: 'graphql' | 'rest' } & SelectionFilters)
  | ({
      type: 'issues';
      repositories: string[];
      state: 'open' | 'closed' | 'all';
      labels?: string[];
      since?: string;
    } & SelectionFilters)
  | ({ type: 'pulls'; repositories: string[]; state: 'open' | 'closed' | 'all'; base?: string } & SelectionFilters)
  | ({ type: 'releases'; repositories: string[]; prereleases: boolean; drafts: boolean } & SelectionFilters)
  | ({
      type: 'rest';
      endpoint: string;
      items?: string;
      params?: Record<string, string | number | boolean>;
      /** Empty when the endpoint has no `{owner}`, `{name}` or `{repo}` (it is read once). */
      repositories: string[];
    } & SelectionFilters)
  | {
      type: 'http';
      url: string[];
      /** Seconds an answer may take to start, and its body may pause (default 30). */
      timeout?: number;
      /** Seconds the whole read of one URL may take, retries and their waits included (default 600). */
      deadline?: number;
      format?: 'json' | 'ndjson' | 'csv';
      items?: string;
      'allow-hosts'?: string[];
      header?: { name: string; env: string; prefix?: string };
    }
  | { type: 'files'; glob: string[]; format?: 'json' | 'yaml' | 'csv' | 'ndjson'; items?: string };

/** A source that reads repositories (has `repositories`). */
export type RepositorySourceSpec = Extract<SourceSpec, { repositories: string[] }>;

/**
 * @example
 * if (readsRepositories(source)) console.log(source.repositories);
 */
export function readsRepositories(source: SourceSpec): source is RepositorySourceSpec {
  return 'repositories' in source;
}

/**
 * Whether a `rest` endpoint is read once per repository.
 *
 * @example
 * endpointPerRepository('GET /repos/{repo}/actions/runs'); // true
 */
export function endpointPerRepository(endpoint: string): boolean {
  return /\{(owner|name|repo)\}/.test(endpoint);
}
