/**
 * The ref's tip and files at that tip in ONE GraphQL query (a bulk read's `fewestRounds` hint, bulk-reads.ts):
 * `ref(qualifiedName:) { target { ... on Commit { f0: file(path:) { mode oid object { ... on Blob { text … } } } } } }`.
 * The files are read from the very commit the query names as the tip, so a write landing meanwhile cannot mix
 * versions — consistent by construction, where the usual path spends a ref read and then a files query.
 * Everything is checked as the other GraphQL reads are: a blob's bytes are kept only when they hash to its oid
 * (graphql.ts `objectAt`); a file GraphQL cannot settle exactly (binary, truncated, not UTF-8, a symlink, an
 * entry whose object disagrees with it) is left out, for the usual path to read at the same tip. An answer with
 * errors yields `undefined`, and a missing ref (or one that is not the ref asked for) `tip: null`: either way the
 * caller reads the ref as before. With a `children` hint the same query also reads the file of each directory
 * under a prefix (tip-children.ts).
 */
import { isSha } from '../../core/git/objects.js';
import type { OpContext } from './client.js';
import { GRAPHQL_BLOB_BATCH, type GraphqlDeps, query } from './graphql.js';
import type { BlobAt } from './graphql-blobs.js';
import { isObject } from './shapes.js';
import { type ChildFiles, childFilesField, childFilesOf, ENTRY_OBJECT, regularFileBlob } from './tip-children.js';

/** Most paths one tip-and-files query asks for (one query's worth: {@link GRAPHQL_BLOB_BATCH}). */
export const TIP_FILES_MAX = GRAPHQL_BLOB_BATCH;

/**
 * The tip and each settled path's blob at it (null: no file there); unsettled paths are absent from `files`.
 * `children`: the exact files the `children` hint asked for, by path (empty without the hint).
 * `tip` null: the query answered, but named no such ref (absent, or not one GraphQL resolves).
 */
export type TipFiles =
  | { tip: string; files: Map<string, BlobAt>; children: Map<string, { sha: string; bytes: Uint8Array }> }
  | { tip: null };

/**
 * Read `ref`'s tip and `paths` at that commit in one query (at most {@link TIP_FILES_MAX} paths).
 *
 * @example
 * const got = await tipAndFiles(deps, ctx, 'refs/docdb/documents', ['_docdb/search.json']);
 * got?.tip; // the commit the files were read at; got?.files.get('_docdb/search.json') → { sha, bytes } | null
 */
export async function tipAndFiles(
  d: GraphqlDeps,
  ctx: OpContext,
  ref: string,
  paths: readonly string[],
  children?: ChildFiles,
): Promise<TipFiles | undefined> {
  if (paths.length === 0 || paths.length > TIP_FILES_MAX) throw new RangeError(`1..${TIP_FILES_MAX} paths`);
  const vars: Record<string, string> = { ref };
  const fields = paths.map((p, i) => {
    vars[`p${i}`] = p;
    return `f${i}: file(path: $p${i}) { mode oid ${ENTRY_OBJECT} }`;
  });
  if (children) {
    vars.d = children.under;
    fields.push(childFilesField());
  }
  const target = `target { __typename oid ... on Commit { ${fields.join(' ')} } }`;
  const repo = await query(
    d,
    ctx,
    'read tip and files (GraphQL)',
    `t: ref(qualifiedName: $ref) { prefix name ${target} }`,
    vars,
  );
  if (!repo) return undefined;
  const commit = tipCommit(repo.t, ref);
  if (!commit) return { tip: null };
  const files = new Map<string, BlobAt>();
  for (const [i, p] of paths.entries()) {
    const settled = await fileAt(commit[`f${i}`]);
    if (settled !== undefined) files.set(p, settled);
  }
  const kept = children ? await childFilesOf(commit.d, children) : new Map();
  return { tip: commit.oid as string, files, children: kept };
}

/** The ref's target when it is exactly `ref` and points at a commit; else undefined (read the ref as usual). */
function tipCommit(t: unknown, ref: string): Record<string, unknown> | undefined {
  if (!isObject(t) || typeof t.prefix !== 'string' || typeof t.name !== 'string') return undefined;
  // `qualifiedName` falls back to short-name matches: only the ref asked for is this section's tip.
  if (`${t.prefix}${t.name}` !== ref) return undefined;
  const target = t.target;
  if (!isObject(target) || target.__typename !== 'Commit' || !isSha(target.oid)) return undefined;
  return target;
}

/**
 * One `file(path:)` answer: null when the commit has no file there (nothing, a directory, a submodule — as
 * the tree walk decides for `get`), the blob (with its bytes when exact), or undefined when unsettled.
 */
async function fileAt(e: unknown): Promise<BlobAt | undefined> {
  if (e === null) return null;
  if (isObject(e) && (e.mode === 0o40000 || e.mode === 0o160000)) return null;
  return await regularFileBlob(e); // undefined for a symlink: the usual path reads it as `get` does
}
