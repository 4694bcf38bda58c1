/**
 * The sources read one repository at a time — `repository` over REST, `issues`, `pulls`, `releases` — each
 * fetched page by page (bounded memory): a source yields pages of items, and the runner reduces a page
 * before asking for the next one. Pagination follows `Link: rel="next"` only on the configured API origin,
 * so the token is never sent anywhere else (see ARCHITECTURE.md, "GitHub API facts").
 */
import type { SourceSpec } from '../spec/index.js';
import { readIssues } from './issues.js';
import { readPulls } from './pulls.js';
import type { ReadContext } from './read-context.js';
import { readReleases } from './releases.js';
import { restRepository } from './repository-rest.js';
import type { SourcePage } from './types.js';

/**
 * One repository's items for a per-repository source (repository over REST, issues, pulls, releases), with the
 * run's conditional reads and budget (read-source.ts calls this; `fetchSource` is the plain public form).
 * `since` is the incremental watermark (issues and pulls).
 *
 * @example
 * for await (const page of readRepositoryItems(ctx, projection.source, 'octo/hello', ctx.since?.('octo/hello'))) …
 */
export async function* readRepositoryItems(
  ctx: ReadContext,
  source: SourceSpec,
  repository: string,
  since?: string,
): AsyncGenerator<SourcePage> {
  switch (source.type) {
    case 'repository':
      yield* restRepository(ctx, repository);
      return;
    case 'issues':
      yield* readIssues(ctx, source, repository, since);
      return;
    case 'pulls':
      yield* readPulls(ctx, source, repository, since);
      return;
    case 'releases':
      yield* readReleases(ctx, source, repository);
      return;
  }
}
