/**
 * Creating and deleting whole refs through the GitHub API, for `shard-commit: merge` (a shard ref starts
 * at the section tip; the merge deletes the shard refs). These are not RefStore operations — a RefStore
 * writes one ref's history — so the entry point brings them, over the run's Octokit.
 * Docs: https://docs.github.com/rest/git/refs#create-a-reference (422 "Reference already exists") and
 * #delete-a-reference (204; 422 "Reference does not exist").
 */
import { Forbidden, NotFound } from '../core/errors.js';
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
 * A refusal as the typed error the step explains (failure.ts: which permission to grant); anything else as
 * it came. Built from the status alone: the client's error carries the request, whose headers held the token.
 */
function typed(e: unknown, what: string, repository: string): unknown {
  const status = statusOf(e);
  if (status === 403) return new Forbidden(`${what} in ${repository} was refused (403)`, { status, repository });
  if (status === 404) return new NotFound(`${what}: ${repository} was not found (404)`, { status, repository });
  return e;
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
        throw typed(e, `creating ${ref}`, repository);
      }
    },
    async delete(ref) {
      // The ref goes into the path as it is (git ref names need no escaping; Octokit would encode the "/").
      const path = ref.replace(/^refs\//, '');
      try {
        await client.request(`DELETE /repos/{owner}/{repo}/git/refs/${path}`, { owner, repo });
      } catch (e) {
        if (statusOf(e) !== 422 && statusOf(e) !== 404) throw typed(e, `deleting ${ref}`, repository);
      }
    },
  };
}
