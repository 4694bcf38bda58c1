/**
 * Creating and deleting whole refs through the GitHub API, for `shard-commit: merge` (a shard ref starts
 * at the section tip; the merge deletes the shard refs). These are not RefStore operations — a RefStore
 * writes one ref's history — so the entry point brings them, over the run's Octokit.
 * Docs: https://docs.github.com/rest/git/refs#create-a-reference (422 "Reference already exists") and
 * #delete-a-reference (204; 422 "Reference does not exist").
 */
import type { SourceClient } from '../projection/sources/index.js';

export interface RefOps {
  /** Create `ref` (full name) at `sha`; 'exists' when the ref is already there (nothing changed). */
  create(ref: string, sha: string): Promise<'created' | 'exists'>;
  /** Delete `ref` (full name); a ref already gone is not an error. */
  delete(ref: string): Promise<void>;
}

/** The HTTP status of an Octokit RequestError (or anything shaped like one). */
function statusOf(e: unknown): number | undefined {
  const status = (e as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Ref operations on `repository` (owner/name) through `client` (the run's Octokit, which throws on 4xx).
 *
 * @example
 * const refs = apiRefOps(octokit, 'octo/data');
 * await refs.create('refs/docdb/inventory.shards/1', tip);
 */
export function apiRefOps(client: SourceClient, repository: string): RefOps {
  const [owner, repo] = repository.split('/') as [string, string];
  return {
    async create(ref, sha) {
      try {
        await client.request('POST /repos/{owner}/{repo}/git/refs', { owner, repo, ref, sha });
        return 'created';
      } catch (e) {
        if (statusOf(e) === 422 && /already exists/i.test(String((e as Error).message))) return 'exists';
        throw e;
      }
    },
    async delete(ref) {
      // The ref goes into the path as it is (git ref names need no escaping; Octokit would encode the "/").
      const path = ref.replace(/^refs\//, '');
      try {
        await client.request(`DELETE /repos/{owner}/{repo}/git/refs/${path}`, { owner, repo });
      } catch (e) {
        if (statusOf(e) !== 422 && statusOf(e) !== 404) throw e;
      }
    },
  };
}
