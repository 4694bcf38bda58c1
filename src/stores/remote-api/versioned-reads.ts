/**
 * `readVersions` on the API: one key at many versions (a document's past values; an index file across section
 * versions) for a handful of requests. Each version is checked to be a commit of the section (free for the
 * versions `history()` just listed). Then, cheapest first:
 * 1. the (commit, key) → blob SHA cache and cached tree levels (no request);
 * 2. with a token, GraphQL aliases `object(expression: "<commit>:<key>")`, 100 pairs a query — with the
 *    values (one request for a document's last 100 versions), or, with `sharedBlobs`, the blob SHAs only;
 * 3. without a token (or when GraphQL cannot answer): one `get` each (a contents request, path-cached);
 * then each distinct blob still missing once: the cache, GraphQL by oid, else `GET /git/blobs/{sha}`.
 * Every value is checked against its blob SHA. https://docs.github.com/graphql/reference/objects#repository
 */
import type { GitCache } from '../../cache/git-cache.js';
import { pairId } from '../../core/read-versions.js';
import type { VersionedItem, VersionedRead } from '../../core/refstore.js';
import type { OpContext } from './client.js';
import { eachLimited } from './each-limited.js';
import { GRAPHQL_BLOB_BATCH, type GraphqlDeps } from './graphql.js';
import { blobsAtPairs, blobsByOid } from './graphql-blobs.js';
import { type KeyReadHost, readKey } from './key-reads.js';

/** What the versioned reader borrows from the store. */
export interface VersionedReadHost {
  keyReads: KeyReadHost;
  cache: Pick<GitCache, 'getBlob' | 'putBlob' | 'getPath' | 'putPath' | 'getCommit'>;
  graphql: GraphqlDeps;
}

/** One read in progress: each pair's blob SHA (null: nothing there) and the values by SHA. */
interface Job {
  shas: Map<string, string | null>;
  values: Map<string, Uint8Array>;
}

/**
 * The value of each pair, in the order given (pairs listed twice are read once).
 *
 * @example
 * const items = await readVersionsOnApi(host, ctx, versions.map((version) => ({ key, version })), false);
 */
export async function readVersionsOnApi(
  h: VersionedReadHost,
  ctx: OpContext,
  reads: readonly VersionedRead[],
  sharedBlobs: boolean,
): Promise<VersionedItem[]> {
  const unique = [...new Map(reads.map((r) => [pairId(r), { key: r.key, version: r.version }])).values()];
  for (const version of new Set(unique.map((r) => r.version))) await h.keyReads.assertInSection(ctx, version);
  const job: Job = { shas: new Map(), values: new Map() };
  await fromCaches(h, job, unique);
  let open = unique.filter((r) => !job.shas.has(pairId(r)));
  if (open.length > 0 && ctx.token !== undefined) {
    await fromGraphql(h, ctx, job, open, !sharedBlobs);
    open = open.filter((r) => !job.shas.has(pairId(r)));
  }
  await eachLimited(open, async (r) => {
    const got = await readKey(h.keyReads, ctx, r.key, r.version);
    job.shas.set(pairId(r), got?.blobSha ?? null);
    if (got) job.values.set(got.blobSha, got.value);
  });
  await readValues(h, ctx, job);
  return reads.map((r) => {
    const sha = job.shas.get(pairId(r)) ?? null;
    const value = sha === null ? undefined : job.values.get(sha);
    return { key: r.key, version: r.version, value: value ? value.slice() : null, blobSha: value ? sha : null };
  });
}

/** Pairs an earlier read settled: the (commit, key) path cache, or tree levels cached under the commit. */
async function fromCaches(h: VersionedReadHost, job: Job, pairs: readonly VersionedRead[]): Promise<void> {
  for (const r of pairs) {
    const known = await h.cache.getPath(r.version, r.key);
    if (known) {
      job.shas.set(pairId(r), 'absent' in known ? null : known.sha);
      continue;
    }
    const commit = await h.cache.getCommit(r.version);
    const at = commit && (await h.keyReads.trees.lookupCached(commit.tree, r.key));
    if (at) job.shas.set(pairId(r), at.kind === 'blob' ? at.sha : null);
  }
}

/** One GraphQL query per 100 pairs; what it says is cached per (commit, key), exact bytes per blob SHA. */
async function fromGraphql(
  h: VersionedReadHost,
  ctx: OpContext,
  job: Job,
  pairs: readonly VersionedRead[],
  withText: boolean,
): Promise<void> {
  const got = await blobsAtPairs(h.graphql, ctx, pairs, withText);
  if (!got) return;
  for (const [i, r] of pairs.entries()) {
    const b = got[i] ?? null;
    job.shas.set(pairId(r), b?.sha ?? null);
    await h.cache.putPath(r.version, r.key, b ? { sha: b.sha } : { absent: true });
    if (b?.bytes) {
      job.values.set(b.sha, b.bytes);
      await h.cache.putBlob(b.sha, b.bytes);
    }
  }
}

/** Each distinct blob whose bytes are not at hand, once: the cache, GraphQL by oid (token), REST. */
async function readValues(h: VersionedReadHost, ctx: OpContext, job: Job): Promise<void> {
  const missing: string[] = [];
  for (const sha of new Set(job.shas.values())) {
    if (sha === null || job.values.has(sha)) continue;
    const cached = await h.cache.getBlob(sha);
    if (cached) job.values.set(sha, cached);
    else missing.push(sha);
  }
  if (missing.length > 0 && ctx.token !== undefined) {
    for (let i = 0; i < missing.length; i += GRAPHQL_BLOB_BATCH) {
      const got = await blobsByOid(h.graphql, ctx, missing.slice(i, i + GRAPHQL_BLOB_BATCH));
      if (!got) break;
      for (const [sha, bytes] of got) {
        job.values.set(sha, bytes);
        await h.cache.putBlob(sha, bytes);
      }
    }
  }
  await eachLimited(
    missing.filter((sha) => !job.values.has(sha)),
    async (sha) => {
      job.values.set(sha, await h.keyReads.trees.blob(ctx, sha));
    },
  );
}
