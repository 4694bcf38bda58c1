/** What every source reader gets: the (budgeted) client, ETag book, paging and the environment of the run. */
import type { InputNames } from '../../core/input-names.js';
import type { RateBudget } from './budget.js';
import type { ConditionalBook } from './conditional.js';
import type { SourceClient } from './types.js';

export interface ReadContext {
  /** Octokit (REST `request` and `graphql`), wrapped so every request is checked against `budget`. */
  client: SourceClient;
  budget: RateBudget;
  book: ConditionalBook;
  /** Items per page, 1–100 (default 100). */
  perPage: number;
  /** Most pages one listing may read (the source's `max-pages`; default DEFAULT_MAX_PAGES, page-walk.ts). */
  maxPages?: number;
  /** API base URL (pagination stays on its origin). */
  apiUrl?: string;
  /** Incremental watermark of a repository (issues, pulls). */
  since?: (repository: string) => string | undefined;
  /**
   * Shard pre-filter: false when no document of this repository can belong to the run's shard (only
   * given when the identity depends on the repository alone), so its details are not fetched at all.
   */
  wants?: (repository: string) => boolean;
  /** fetch for `http` sources (never used with the GitHub token). */
  fetch: typeof globalThis.fetch;
  /** Wait between retries of `http` sources (tests inject one; default setTimeout). */
  sleep?: (ms: number) => Promise<void>;
  /** Environment for `http` secret headers. */
  env: Readonly<Record<string, string | undefined>>;
  /** Workspace directory `files` sources are confined to. */
  workspace: string;
  log: (line: string) => void;
  /** How messages name the run's settings (default the Action's inputs). */
  inputNames?: InputNames;
}
