/**
 * The browser bundle's `docdb/browser` functions (scripts/build-browser.mjs puts this module in place of
 * src/browser/functions.ts): each is the function of the same name, with the same arguments and answer,
 * whose code comes through `import()` on the first call — a chunk of its own, so a page that only gets and
 * puts does not download it. (Both are async already: loading first changes when their code arrives, not
 * what they do.)
 */
import type { RefStore } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import type { TypeSeriesQuery, TypeSeriesResult } from '../../document/type-series.js';
import type { RepoProjectionOptions, RepoProjectionResult } from '../repo-projection.js';

/**
 * A type's count, or sum/mean/min/max of an indexed field, at each of `versions`, from its index
 * (src/document/type-series.ts, loaded now).
 *
 * @example
 * const { points } = await typeSeries(store, { namespace: 'github', type: 'repo', aggregate: 'count' }, versions);
 */
export async function typeSeries(
  store: RefStore,
  query: TypeSeriesQuery,
  versions: readonly VersionId[],
): Promise<TypeSeriesResult> {
  const series = await import('../../document/type-series.js');
  return series.typeSeries(store, query, versions);
}

/**
 * Fetch and project one repository (src/browser/repo-projection.ts, loaded now).
 *
 * @example
 * const { envelope } = await projectRepository({ transport: fetchTransport(), repository: 'octocat/hello-world' });
 */
export async function projectRepository(options: RepoProjectionOptions): Promise<RepoProjectionResult> {
  const projection = await import('../repo-projection.js');
  return projection.projectRepository(options);
}
