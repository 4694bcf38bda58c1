/** release (`GET /repos/{owner}/{repo}/releases` items). */
import type { Account, ReleaseRecord, RepoRecord, Urls } from '../model.js';
import { nodeId, repoApiUrl } from './common.js';
import { userShape } from './users.js';

/**
 * release, without assets (the emulator stores none).
 *
 * @example
 * releaseShape(repo, rel, urls, state.account(rel.author)).tag_name; // 'v1.0.0'
 */
export function releaseShape(r: RepoRecord, rel: ReleaseRecord, urls: Urls, author: Account): Record<string, unknown> {
  const repoUrl = repoApiUrl(r, urls);
  const url = `${repoUrl}/releases/${rel.id}`;
  const tag = encodeURIComponent(rel.tagName);
  return {
    url,
    html_url: `${urls.html}/${r.fullName}/releases/tag/${tag}`,
    assets_url: `${url}/assets`,
    upload_url: `${url}/assets{?name,label}`,
    tarball_url: `${repoUrl}/tarball/${tag}`,
    zipball_url: `${repoUrl}/zipball/${tag}`,
    id: rel.id,
    node_id: nodeId('Release', rel.id),
    tag_name: rel.tagName,
    target_commitish: rel.targetCommitish,
    name: rel.name,
    body: rel.body,
    draft: rel.draft,
    prerelease: rel.prerelease,
    immutable: false,
    created_at: rel.createdAt,
    published_at: rel.publishedAt,
    author: userShape(author, urls),
    assets: [],
  };
}
