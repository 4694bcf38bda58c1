/**
 * One projection's source, read page by page whatever its type: repository selection (`owner/*`
 * expanded), GraphQL or REST for `repository`, the per-repository lists, `rest`, `http` and `files`.
 */

import type { SourceSpec } from '../spec/index.js';
import { readFiles } from './files.js';
import { readHttp } from './http.js';
import { readRepositoryItems } from './per-repository.js';
import type { ReadContext } from './read-context.js';
import { graphqlOwnerRepositories, graphqlRepositories } from './repository-graphql.js';
import { restRepository } from './repository-rest.js';
import { readRest } from './rest.js';
import { expandRepositories, isWildcard } from './select.js';
import type { SourcePage } from './types.js';

/**
 * Every page of a source.
 *
 * @example
 * for await (const page of readSource(ctx, projection.source)) for (const item of page.items) …
 */
export async function* readSource(ctx: ReadContext, source: SourceSpec): AsyncGenerator<SourcePage> {
  const wants = ctx.wants ?? (() => true);
  switch (source.type) {
    case 'repository': {
      if (source.api === 'rest') {
        for await (const repository of expandRepositories(ctx, source.repositories, source)) {
          if (wants(repository)) yield* restRepository(ctx, repository);
        }
        return;
      }
      // Listed repositories first (by alias, 100 per query), then each `owner/*` (100 per page).
      const seen = new Set<string>();
      const listed = source.repositories.filter((r) => !isWildcard(r));
      for (const r of listed) seen.add(r.toLowerCase());
      const named = listed.filter(wants);
      if (named.length > 0) yield* graphqlRepositories(ctx, named);
      for (const selector of source.repositories.filter(isWildcard)) {
        for await (const page of graphqlOwnerRepositories(ctx, selector.slice(0, -2), source)) {
          const items = page.items.filter((it) => {
            const k = it.repository.toLowerCase();
            if (seen.has(k)) return false;
            seen.add(k);
            return true;
          });
          yield { ...page, items };
        }
      }
      return;
    }
    case 'issues':
    case 'pulls':
    case 'releases':
      for await (const repository of expandRepositories(ctx, source.repositories, source)) {
        yield* readRepositoryItems(ctx, source, repository, ctx.since?.(repository));
      }
      return;
    case 'rest':
      yield* readRest(ctx, source);
      return;
    case 'http':
      yield* readHttp(ctx, source);
      return;
    case 'files':
      yield* readFiles(ctx, source);
      return;
  }
}
