/**
 * `type: issues` — one repository's issues, oldest update first, page by page and conditionally. An
 * incremental run asks for every state from the watermark on, so issues that left the filter (e.g. got
 * closed while `state: open`) are seen, marked `matches: false`, and pruned.
 */
import type { SourceSpec } from '../spec/index.js';
import { byUpdateParams, readRepositoryList } from './list-pages.js';
import type { ReadContext } from './read-context.js';
import { repositoryVars } from './repository-name.js';
import type { SourceItem, SourcePage } from './types.js';

type IssuesSpec = Extract<SourceSpec, { type: 'issues' }>;

/**
 * Every page of a repository's issues (pull requests, which GitHub lists here too, left out).
 *
 * @example
 * for await (const page of readIssues(ctx, { type: 'issues', repositories: ['o/r'], state: 'open' }, 'o/r')) …
 */
export function readIssues(
  ctx: ReadContext,
  source: IssuesSpec,
  repository: string,
  watermark?: string,
): AsyncGenerator<SourcePage> {
  const params = byUpdateParams(ctx, source.state, watermark, 'asc');
  // A full read lets GitHub filter by label; an incremental one must also see issues that lost a label (pruned).
  if (source.labels?.length && !watermark) params.labels = source.labels.join(',');
  const since = maxIso(watermark, source.since);
  if (since) params.since = since;
  const base = repositoryVars(repository);
  return readRepositoryList(ctx, 'issues', params, repository, (data) => {
    const items: SourceItem[] = [];
    for (const raw of data) {
      // GitHub lists pull requests in the issues endpoint too; they belong to the `pulls` source.
      if (raw.pull_request !== undefined && raw.pull_request !== null) continue;
      const labels = labelNames(raw.labels);
      items.push({
        repository,
        vars: { ...base, number: Number(raw.number), id: Number(raw.id) },
        item: raw,
        updatedAt: typeof raw.updated_at === 'string' ? raw.updated_at : undefined,
        matches:
          (source.state === 'all' || raw.state === source.state) &&
          (!source.labels?.length || source.labels.every((l) => labels.includes(l))),
      } as SourceItem);
    }
    return { items };
  });
}

function labelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return [];
  return labels.map((l) => (typeof l === 'string' ? l : String((l as { name?: unknown })?.name ?? '')));
}

function maxIso(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}
