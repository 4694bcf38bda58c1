/** `type: releases` — one repository's releases, drafts and prereleases included unless the spec says no. */
import type { SourceSpec } from '../spec/index.js';
import { readRepositoryList } from './list-pages.js';
import type { ReadContext } from './read-context.js';
import { repositoryVars } from './repository-name.js';
import type { SourceItem, SourcePage } from './types.js';

type ReleasesSpec = Extract<SourceSpec, { type: 'releases' }>;

/**
 * Every page of a repository's releases.
 *
 * @example
 * for await (const page of readReleases(ctx, { type: 'releases', repositories: ['o/r'], prereleases: true, drafts: false }, 'o/r')) …
 */
export function readReleases(ctx: ReadContext, source: ReleasesSpec, repository: string): AsyncGenerator<SourcePage> {
  const base = repositoryVars(repository);
  return readRepositoryList(ctx, 'releases', { per_page: ctx.perPage }, repository, (data) => {
    const items: SourceItem[] = [];
    for (const raw of data) {
      if (!source.drafts && raw.draft === true) continue;
      if (!source.prereleases && raw.prerelease === true) continue;
      // Drafts have no tag until published; fall back to the release id so the identity stays unique.
      const tag = typeof raw.tag_name === 'string' && raw.tag_name ? raw.tag_name : `draft-${raw.id}`;
      items.push({ repository, vars: { ...base, tag, id: Number(raw.id) }, item: raw, matches: true });
    }
    return { items };
  });
}
