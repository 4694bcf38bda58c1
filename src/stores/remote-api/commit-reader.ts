/**
 * Reading commits (`GET /git/commits/{sha}`) through the object cache: a commit is immutable, so each is
 * fetched at most once per cache. https://docs.github.com/rest/git/commits#get-a-commit-object
 */
import type { CachedCommit, GitCache } from '../../cache/git-cache.js';
import { InvalidVersion } from '../../core/errors.js';
import type { GitHubClient, OpContext } from './client.js';
import { badResponse, parseCommit } from './shapes.js';

/**
 * @example
 * const commits = new CommitReader(client, cache, 'octo/data');
 * const { tree, parents } = await commits.get(ctx, tip);
 */
export class CommitReader {
  constructor(
    private readonly client: Pick<GitHubClient, 'send'>,
    private readonly cache: Pick<GitCache, 'getCommit' | 'putCommit'>,
    /** `owner/repo`, for messages. */
    private readonly repository: string,
  ) {}

  /**
   * The commit `sha`. `pinned`: the SHA came from the caller (a version to read at), so a 404 or 422
   * means "no such version" (`InvalidVersion`) rather than an error of the API.
   */
  async get(ctx: OpContext, sha: string, pinned = false): Promise<CachedCommit> {
    const hit = await this.cache.getCommit(sha);
    if (hit) return hit;
    const res = await this.client.send(ctx, {
      step: 'read commit',
      method: 'GET',
      path: `/git/commits/${sha}`,
      retry: true,
      accept: pinned ? [404, 422] : [],
    });
    if (res.status === 404 || res.status === 422) {
      throw new InvalidVersion(sha, `version ${sha} is not a commit of ${this.repository}`);
    }
    const c = parseCommit(ctx, 'read commit', res.json());
    if (c.sha !== sha) throw badResponse(ctx, 'read commit', `asked for ${sha}, got ${c.sha}`);
    await this.cache.putCommit(c);
    return c;
  }
}
