/**
 * Git objects in GitHub's GraphQL graph: `repository { object(expression:) / object(oid:) }` resolving to a
 * `Blob`, `Tree` or `Commit` (https://docs.github.com/graphql/reference/objects#blob). As on GitHub:
 * - `Commit.file(path:)` is the `TreeEntry` at that path of the commit's tree (null when there is none), so one
 *   query can read a ref's tip and files at that very commit (`ref(qualifiedName:) { target { ... on Commit } }`);
 * - `expression` is `<rev>:<path>` (or `<rev>` alone) where `<rev>` is a commit or tree SHA, a branch, a
 *   tag or a full ref name; anything that does not resolve is `null` (no error);
 * - `Blob.text` is null for binary blobs (a NUL byte in the first 8,000 bytes, git's rule) and cut at
 *   {@link GRAPHQL_BLOB_TEXT_LIMIT} bytes with `isTruncated: true`. GitHub does not document the limit; users
 *   measured it at exactly 512,000 bytes (https://github.com/sveltia/sveltia-cms/issues/950). The emulator's
 *   `graphqlBlobTextBytes` option lowers it so tests can cross it with small blobs; a client must fall back
 *   to `GET /git/blobs/{sha}` on either flag.
 */
import { isSha, type TreeEntry } from '../../core/git/objects.js';
import type { RepoRecord } from '../model.js';
import { resolveCommitish } from '../revisions.js';
import { nodeId } from '../shapes/common.js';

/** Bytes of `Blob.text` served before `isTruncated` is set (GitHub's, as measured; the option's default). */
export const GRAPHQL_BLOB_TEXT_LIMIT = 512_000;

const MODE_NUMBER: Record<string, number> = {
  '100644': 0o100644,
  '100755': 0o100755,
  '120000': 0o120000,
  '040000': 0o40000,
  '160000': 0o160000,
};

/**
 * The object an `object(expression:)` or `object(oid:)` argument names, or null.
 *
 * @example
 * gitObject(repo, { expression: `${sha}:github/repo/o/r.json` })?.__typename; // 'Blob'
 */
export function gitObject(
  r: RepoRecord,
  args: { expression?: string | null; oid?: string | null },
  textLimit = GRAPHQL_BLOB_TEXT_LIMIT,
  served?: (sha: string) => void,
) {
  const sha =
    args.oid != null
      ? objectByOid(r, args.oid)
      : args.expression != null
        ? resolveExpression(r, args.expression)
        : undefined;
  return sha === undefined ? null : objectOf(r, sha, textLimit, served);
}

function objectByOid(r: RepoRecord, oid: string): string | undefined {
  const sha = oid.toLowerCase();
  return isSha(sha) && r.db.typeOf(sha) !== undefined ? sha : undefined;
}

function resolveExpression(r: RepoRecord, expression: string): string | undefined {
  const colon = expression.indexOf(':');
  const rev = colon < 0 ? expression : expression.slice(0, colon);
  const path = colon < 0 ? undefined : expression.slice(colon + 1).replace(/\/+$/, '');
  const lower = rev.toLowerCase();
  const type = isSha(lower) ? r.db.typeOf(lower) : undefined;
  let sha = type === 'tree' || type === 'blob' ? lower : resolveCommitish(r, rev);
  if (sha === undefined) return undefined;
  if (path === undefined) return sha;
  if (r.db.typeOf(sha) === 'commit') sha = r.db.getCommit(sha).tree;
  if (r.db.typeOf(sha) !== 'tree') return undefined;
  if (path === '') return sha;
  return r.db.lookupPath(sha, path)?.sha;
}

function objectOf(r: RepoRecord, sha: string, textLimit: number, served?: (sha: string) => void) {
  const type = r.db.typeOf(sha);
  const common = {
    id: nodeId(type === 'blob' ? 'Blob' : type === 'tree' ? 'Tree' : 'Commit', sha),
    oid: sha,
    abbreviatedOid: sha.slice(0, 7),
  };
  if (type === 'blob') return blobObject(r, sha, common, textLimit, served);
  if (type === 'tree') {
    return {
      __typename: 'Tree',
      ...common,
      entries: () => r.db.getTree(sha).map((e) => treeEntryObject(r, e, e.name, textLimit, served)),
    };
  }
  if (type === 'commit') {
    const c = r.db.getCommit(sha);
    return {
      __typename: 'Commit',
      ...common,
      tree: () => objectOf(r, c.tree, textLimit, served),
      message: c.message,
      // `Commit.file(path:)`: the entry at that path of this commit's tree, null when there is none.
      file: (args: { path: string }) => {
        const path = args.path.replace(/^\/+|\/+$/g, '');
        const e = path === '' ? undefined : r.db.lookupPath(c.tree, path);
        return e ? treeEntryObject(r, e, path, textLimit, served) : null;
      },
    };
  }
  return null;
}

/** A `TreeEntry` (its `object` resolved on demand; a submodule's is null, as GitHub has no such object). */
function treeEntryObject(r: RepoRecord, e: TreeEntry, path: string, textLimit: number, served?: (sha: string) => void) {
  const type = e.mode === '040000' ? 'tree' : e.mode === '160000' ? 'commit' : 'blob';
  return {
    __typename: 'TreeEntry',
    name: e.name,
    path,
    oid: e.sha,
    mode: MODE_NUMBER[e.mode] ?? 0,
    type,
    size: type === 'blob' ? r.db.getBlob(e.sha).length : 0,
    object: () => (type === 'commit' ? null : objectOf(r, e.sha, textLimit, served)),
  };
}

function blobObject(
  r: RepoRecord,
  sha: string,
  common: Record<string, unknown>,
  textLimit: number,
  served?: (sha: string) => void,
) {
  const bytes = r.db.getBlob(sha);
  const isBinary = bytes.subarray(0, 8000).includes(0);
  const isTruncated = !isBinary && bytes.length > textLimit;
  const shown = isTruncated ? bytes.subarray(0, textLimit) : bytes;
  return {
    __typename: 'Blob',
    ...common,
    byteSize: bytes.length,
    isBinary,
    isTruncated,
    // A resolver, so only an answer that asks for the text counts as serving the blob.
    text: () => {
      if (isBinary) return null;
      served?.(sha);
      return new TextDecoder().decode(shown);
    },
  };
}
