/**
 * `type: pulls` — one repository's pull requests, newest update first. The pulls endpoint has no `since`:
 * an incremental run asks for every state and stops at the first page that reaches back past the
 * watermark.
 */
import type { SourceSpec } from '../spec/index.js';
import { byUpdateParams, readRepositoryList } from './list-pages.js';
import type { ReadContext } from './read-context.js';
import { repositoryVars } from './repository-name.js';
import type { SourceItem, SourcePage } from './types.js';

type PullsSpec = Extract<SourceSpec, { type: 'pulls' }>;

/**
 * Every page of a repository's pull requests (up to the watermark, when given).
 *
 * @example
 * for await (const page of readPulls(ctx, { type: 'pulls', repositories: ['o/r'], state: 'all' }, 'o/r')) …
 */
export function readPulls(
  ctx: ReadContext,
  source: PullsSpec,
  repository: string,
  watermark?: string,
): AsyncGenerator<SourcePage> {
  const params = byUpdateParams(ctx, source.state, watermark, 'desc');
  if (source.base) params.base = source.base;
  const base = repositoryVars(repository);
  return readRepositoryList(ctx, 'pulls', params, repository, (data) => {
    const items: SourceItem[] = [];
    let older = 0;
    for (const raw of data) {
      const updatedAt = typeof raw.updated_at === 'string' ? raw.updated_at : undefined;
      // The pulls endpoint has no `since`; sorted by update time (newest first) we can stop at the watermark.
      if (watermark && updatedAt && updatedAt < watermark) {
        older++;
        continue;
      }
      items.push({
        repository,
        vars: { ...base, number: Number(raw.number), id: Number(raw.id) },
        item: raw,
        updatedAt,
        matches: source.state === 'all' || raw.state === source.state,
      } as SourceItem);
    }
    return { items, last: older > 0 };
  });
}
