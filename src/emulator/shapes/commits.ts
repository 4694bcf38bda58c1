/** Commits in both of GitHub's forms: git-commit (the Git Database API) and commit (`GET /commits`, compare). */
import { type Signature, signatureDate } from '../../core/git/objects.js';
import type { RepoRecord, Urls } from '../model.js';
import { nodeId, repoApiUrl } from './common.js';

/**
 * `verification` of a commit nobody signed.
 *
 * @example
 * body.verification = UNSIGNED_VERIFICATION;
 */
export const UNSIGNED_VERIFICATION = {
  verified: false,
  reason: 'unsigned',
  signature: null,
  payload: null,
  verified_at: null,
};

function sigShape(s: Signature): { name: string; email: string; date: string } {
  return { name: s.name, email: s.email, date: signatureDate(s) };
}

/** `verification` of a commit: unsigned, or (for commits GitHub signed on creation) verified. */
function verificationOf(r: RepoRecord, sha: string, c: { committer: Signature }): Record<string, unknown> {
  if (!r.signedCommits?.has(sha)) return UNSIGNED_VERIFICATION;
  return {
    verified: true,
    reason: 'valid',
    // Not a real signature: the emulator does not sign (see RepoRecord.signedCommits).
    signature:
      '-----BEGIN PGP SIGNATURE-----\n\nemulator: signed by GitHub (not a real signature)\n-----END PGP SIGNATURE-----\n',
    payload: new TextDecoder().decode(r.db.get(sha)?.body ?? new Uint8Array()),
    verified_at: signatureDate(c.committer),
  };
}

/**
 * git-commit (`GET/POST /git/commits`).
 *
 * @example
 * gitCommitShape(repo, sha, urls).tree; // { sha, url }
 */
export function gitCommitShape(r: RepoRecord, sha: string, urls: Urls): Record<string, unknown> {
  const c = r.db.getCommit(sha);
  const repoUrl = repoApiUrl(r, urls);
  return {
    sha,
    node_id: nodeId('Commit', `${r.id}:${sha}`),
    url: `${repoUrl}/git/commits/${sha}`,
    html_url: `${urls.html}/${r.fullName}/commit/${sha}`,
    author: sigShape(c.author),
    committer: sigShape(c.committer),
    tree: { sha: c.tree, url: `${repoUrl}/git/trees/${c.tree}` },
    message: c.message,
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${repoUrl}/git/commits/${p}`,
      html_url: `${urls.html}/${r.fullName}/commit/${p}`,
    })),
    verification: verificationOf(r, sha, c),
  };
}

/**
 * commit (`GET /repos/{owner}/{repo}/commits` items, compare's commits).
 *
 * @example
 * commitShape(repo, sha, urls).commit; // { author, committer, message, tree, url, comment_count, verification }
 */
export function commitShape(r: RepoRecord, sha: string, urls: Urls): Record<string, unknown> {
  const c = r.db.getCommit(sha);
  const repoUrl = repoApiUrl(r, urls);
  return {
    sha,
    node_id: nodeId('Commit', `${r.id}:${sha}`),
    commit: {
      author: sigShape(c.author),
      committer: sigShape(c.committer),
      message: c.message.replace(/\n$/, ''),
      tree: { sha: c.tree, url: `${repoUrl}/git/trees/${c.tree}` },
      url: `${repoUrl}/git/commits/${sha}`,
      comment_count: 0,
      verification: verificationOf(r, sha, c),
    },
    url: `${repoUrl}/commits/${sha}`,
    html_url: `${urls.html}/${r.fullName}/commit/${sha}`,
    comments_url: `${repoUrl}/commits/${sha}/comments`,
    author: null,
    committer: null,
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${repoUrl}/commits/${p}`,
      html_url: `${urls.html}/${r.fullName}/commit/${p}`,
    })),
  };
}
