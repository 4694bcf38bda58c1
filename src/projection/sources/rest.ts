/**
 * `type: rest` — any GitHub REST list endpoint on the configured API origin (`GET /repos/{repo}/actions/runs`),
 * once per selected repository when the endpoint names `{owner}`, `{name}` or `{repo}`, else once. Pages
 * follow `Link: rel="next"` (only on the API origin) and are read conditionally; `items` says where the
 * array is in the answer (`workflow_runs`), and `{item.<field>}` names the documents.
 */
import { InvalidResponse } from '../../core/errors.js';
import { endpointPerRepository, type SourceSpec, valueAt } from '../spec/index.js';
import { readListPages } from './list-pages.js';
import type { ReadContext } from './read-context.js';
import { repositoryVars, splitRepository } from './repository-name.js';
import { expandRepositories } from './select.js';
import type { SourcePage } from './types.js';

type RestSpec = Extract<SourceSpec, { type: 'rest' }>;

/**
 * The endpoint's path with `{owner}`, `{name}` and `{repo}` filled (each segment URL-encoded).
 *
 * @example
 * endpointPath('GET /repos/{repo}/actions/runs', 'octo/hello'); // '/repos/octo/hello/actions/runs'
 */
export function endpointPath(endpoint: string, repository?: string): string {
  const path = endpoint.replace(/^GET\s+/, '');
  if (!repository) return path;
  const split = splitRepository(repository);
  const owner = encodeURIComponent(split.owner);
  const name = encodeURIComponent(split.name);
  return path
    .replace(/\{owner\}/g, owner)
    .replace(/\{name\}/g, name)
    .replace(/\{repo\}/g, `${owner}/${name}`);
}

/**
 * Every page of a `rest` source.
 *
 * @example
 * for await (const page of readRest(ctx, { type: 'rest', endpoint: 'GET /repos/{repo}/actions/runs', items: 'workflow_runs', repositories: ['octo/a'] })) …
 */
export async function* readRest(ctx: ReadContext, source: RestSpec): AsyncGenerator<SourcePage> {
  if (!endpointPerRepository(source.endpoint)) {
    yield* readEndpoint(ctx, source, undefined);
    return;
  }
  for await (const repository of expandRepositories(ctx, source.repositories, source)) {
    yield* readEndpoint(ctx, source, repository);
  }
}

async function* readEndpoint(
  ctx: ReadContext,
  source: RestSpec,
  repository: string | undefined,
): AsyncGenerator<SourcePage> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(source.params ?? {})) q.set(k, String(v));
  if (!q.has('per_page')) q.set('per_page', String(ctx.perPage));
  const label = repository ?? endpointPath(source.endpoint);
  const base: Record<string, string> = repository ? repositoryVars(repository) : {};
  let index = 0;
  yield* readListPages(ctx, `${endpointPath(source.endpoint, repository)}?${q}`, label, (data) => {
    const list = source.items ? valueAt(data, source.items) : data;
    if (!Array.isArray(list)) {
      throw new InvalidResponse(
        `${source.endpoint}${repository ? ` (${repository})` : ''}: ${source.items ? `"${source.items}" in the answer is not an array` : 'the answer is not an array; set "items" to the field holding the list (e.g. items: workflow_runs)'}`,
        { endpoint: source.endpoint },
      );
    }
    return {
      items: list.map((item) => ({
        repository: repository ?? '',
        vars: { ...base, index: index++ },
        item,
        matches: true,
      })),
    };
  });
}
