/** Releases, and the tag a published release points at. */
import { isSha } from '../../core/git/objects.js';
import { DEFAULT_DATE } from '../dates.js';
import type { ReleaseRecord, RepoRecord } from '../model.js';
import { fullRefName } from '../revisions.js';
import type { Registry } from './registry.js';

export interface ReleaseInput {
  tagName: string;
  targetCommitish?: string;
  name?: string | null;
  body?: string | null;
  draft?: boolean;
  prerelease?: boolean;
  author?: string;
  createdAt?: string;
  publishedAt?: string | null;
}

/**
 * Add a release; unless it is a draft, its tag ref is created at the target when missing.
 *
 * @example
 * addRelease(registry, repo, { tagName: 'v1.0.0', name: 'First release' });
 */
export function addRelease(registry: Registry, repo: RepoRecord, rel: ReleaseInput): ReleaseRecord {
  if (!rel?.tagName) throw new Error('addRelease: tagName is required');
  const createdAt = rel.createdAt ?? DEFAULT_DATE;
  const target = rel.targetCommitish ?? repo.defaultBranch;
  const rec: ReleaseRecord = {
    id: registry.newId(),
    tagName: rel.tagName,
    targetCommitish: target,
    name: rel.name ?? rel.tagName,
    body: rel.body ?? null,
    draft: rel.draft ?? false,
    prerelease: rel.prerelease ?? false,
    author: registry.account(rel.author ?? repo.owner.login).login,
    createdAt,
    publishedAt: rel.draft ? null : (rel.publishedAt ?? createdAt),
  };
  if (!rel.draft) tagTarget(repo, rel.tagName, target);
  repo.releases.push(rec);
  return rec;
}

/** A published release has its tag; create a lightweight tag ref at the target like GitHub does. */
function tagTarget(repo: RepoRecord, tagName: string, target: string): void {
  const tagRef = `refs/tags/${tagName}`;
  if (repo.db.readRef(tagRef)) return;
  const sha = isSha(target) ? target : repo.db.readRef(fullRefName(target));
  if (sha && repo.db.typeOf(sha) === 'commit') repo.db.compareAndSwapRef(tagRef, null, sha);
}
