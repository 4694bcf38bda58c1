/**
 * The batched blob reads over GraphQL (graphql.ts sends the queries): blobs by oid
 * (`object(oid:) { ... on Blob { text isBinary isTruncated } }`) and the blob at each path or `(key,
 * version)` pair, for bulk and versioned reads in a browser, where the archive cannot be read, and the
 * previous blob SHAs of a compare. An answer with `errors` or without the expected data yields `undefined`:
 * the caller falls back to REST.
 */
import { utf8 } from '../../core/bytes.js';
import { blobShaAsync, isSha } from '../../core/git/objects.js';
import type { OpContext } from './client.js';
import { GRAPHQL_BLOB_BATCH, type GraphqlDeps, objectAt, query } from './graphql.js';
import { isObject } from './shapes.js';

/**
 * The bytes of each blob by oid, in one query; a blob GraphQL cannot give exactly (binary, truncated, or text
 * that does not hash back to the oid) is missing from the result — read it from `GET /git/blobs/{sha}`.
 *
 * @example
 * const got = await blobsByOid(deps, ctx, shas.slice(0, GRAPHQL_BLOB_BATCH));
 */
export async function blobsByOid(
  d: GraphqlDeps,
  ctx: OpContext,
  oids: readonly string[],
): Promise<Map<string, Uint8Array> | undefined> {
  const fields = oids.map((oid, i) => {
    if (!isSha(oid)) throw new TypeError(`not a blob SHA: ${oid}`);
    return `o${i}: object(oid: "${oid}") { ... on Blob { text isBinary isTruncated } }`;
  });
  const repo = await query(d, ctx, 'read blobs (GraphQL)', fields.join(' '), {});
  if (!repo) return undefined;
  const out = new Map<string, Uint8Array>();
  for (const [i, oid] of oids.entries()) {
    const o = repo[`o${i}`];
    if (!isObject(o) || o.isBinary !== false || o.isTruncated !== false || typeof o.text !== 'string') continue;
    const bytes = utf8(o.text);
    // Text that is not valid UTF-8 comes back altered: only bytes that hash to the oid are kept.
    if ((await blobShaAsync(bytes)) === oid) out.set(oid, bytes);
  }
  return out;
}

/**
 * The blob SHA of each path at `commit` (null for a path that is not there), in queries of
 * {@link GRAPHQL_BLOB_BATCH} paths; undefined when GraphQL cannot answer.
 *
 * @example
 * const before = await oidsAt(deps, ctx, fromSha, ['github/repo/o/r.json']); // Map { path → sha | null }
 */
export async function oidsAt(
  d: GraphqlDeps,
  ctx: OpContext,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, string | null> | undefined> {
  const out = new Map<string, string | null>();
  for (let i = 0; i < paths.length; i += GRAPHQL_BLOB_BATCH) {
    const batch = paths.slice(i, i + GRAPHQL_BLOB_BATCH);
    const vars: Record<string, string> = {};
    const fields = batch.map((p, j) => {
      vars[`e${j}`] = `${commit}:${p}`;
      return `e${j}: object(expression: $e${j}) { __typename oid }`;
    });
    const repo = await query(d, ctx, 'read previous blob SHAs', fields.join(' '), vars);
    if (!repo) return undefined;
    for (const [j, p] of batch.entries()) {
      const o = repo[`e${j}`];
      out.set(p, isObject(o) && o.__typename === 'Blob' && isSha(o.oid) ? o.oid : null);
    }
  }
  return out;
}

/**
 * Each path's blob at `commit` in queries of {@link GRAPHQL_BLOB_BATCH}: its SHA, and its bytes when GraphQL
 * can give them exactly (see {@link blobsByOid}); null for a path that holds no blob. Undefined when GraphQL
 * cannot answer.
 *
 * @example
 * const got = await blobsAt(deps, ctx, tip, ['github/repo/o/r.json']); // Map { path → { sha, bytes? } | null }
 */
export async function blobsAt(
  d: GraphqlDeps,
  ctx: OpContext,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, { sha: string; bytes?: Uint8Array } | null> | undefined> {
  const got = await blobsAtPairs(
    d,
    ctx,
    paths.map((key) => ({ key, version: commit })),
    true,
  );
  return got && new Map(paths.map((p, i) => [p, got[i] ?? null]));
}

/** One pair's blob: its SHA, and its bytes when asked for and exact; null when the pair holds no blob. */
export type BlobAt = { sha: string; bytes?: Uint8Array } | null;

/**
 * The blob of each `(key, version)` pair (`object(expression: "<commit>:<key>")` aliases, in queries of
 * {@link GRAPHQL_BLOB_BATCH}), in the order given: its SHA, and with `withText` its bytes when GraphQL gives
 * them exactly (not binary, not truncated, hashing to the SHA). Undefined when GraphQL cannot answer.
 *
 * @example
 * const got = await blobsAtPairs(deps, ctx, versions.map((version) => ({ key, version })), true); // [{ sha, bytes } | null, …]
 */
export async function blobsAtPairs(
  d: GraphqlDeps,
  ctx: OpContext,
  pairs: readonly { key: string; version: string }[],
  withText: boolean,
): Promise<BlobAt[] | undefined> {
  const out: BlobAt[] = [];
  const text = withText ? ' ... on Blob { text isBinary isTruncated }' : '';
  for (let i = 0; i < pairs.length; i += GRAPHQL_BLOB_BATCH) {
    const batch = pairs.slice(i, i + GRAPHQL_BLOB_BATCH);
    const vars: Record<string, string> = {};
    const fields = batch.map((p, j) => {
      vars[`e${j}`] = `${p.version}:${p.key}`;
      return `e${j}: object(expression: $e${j}) { __typename oid${text} }`;
    });
    const repo = await query(d, ctx, 'read blobs (GraphQL)', fields.join(' '), vars);
    if (!repo) return undefined;
    for (const j of batch.keys()) {
      const o = await objectAt(repo[`e${j}`]);
      out.push(o?.type === 'Blob' ? (o.bytes ? { sha: o.oid, bytes: o.bytes } : { sha: o.oid }) : null);
    }
  }
  return out;
}
