/**
 * `fetchSource`: one repository's items of a source, page by page, without a run around it — no
 * conditional reads, budget floor, shard or workspace. The public form of what the runner does through
 * read-source.ts.
 */
import type { SourceSpec, SourceType } from '../spec/index.js';
import { apiBaseOf } from './api-url.js';
import { RateBudget } from './budget.js';
import { ConditionalBook } from './conditional.js';
import { readRepositoryItems } from './per-repository.js';
import type { ReadContext } from './read-context.js';
import type { SourceClient, SourcePage } from './types.js';

export interface FetchOptions {
  /** Incremental watermark: only items updated at or after this ISO time (issues, pulls). */
  since?: string;
  /** Items per page (1–100, default 100). */
  perPage?: number;
  /** API origin pagination links must stay on (default: the origin of the first response's links). */
  apiUrl?: string;
}

/**
 * Whether a source can fetch incrementally from a `since` watermark.
 *
 * @example
 * supportsIncremental('issues'); // true
 * supportsIncremental('releases'); // false
 */
export function supportsIncremental(type: SourceType): boolean {
  return type === 'issues' || type === 'pulls';
}

/** A read context without conditional reads, budget floor, shard or workspace (for `fetchSource`). */
function plainContext(client: SourceClient, options: FetchOptions): ReadContext {
  return {
    client,
    budget: new RateBudget(0),
    book: new ConditionalBook(undefined, undefined, () => false),
    perPage: options.perPage ?? 100,
    apiUrl: apiBaseOf(client, options.apiUrl),
    fetch: globalThis.fetch,
    env: {},
    workspace: '.',
    log: () => {},
  };
}

/**
 * Fetch one repository's items for a source, page by page.
 *
 * @example
 * for await (const page of fetchSource(octokit, spec.source, 'octo/hello')) console.log(page.items.length);
 */
export async function* fetchSource(
  client: SourceClient,
  source: SourceSpec,
  repository: string,
  options: FetchOptions = {},
): AsyncGenerator<SourcePage> {
  yield* readRepositoryItems(plainContext(client, options), source, repository, options.since);
}
