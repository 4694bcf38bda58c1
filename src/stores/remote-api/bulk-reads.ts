/**
 * `readMany` on the API: many keys at one version for a handful of requests, never one request per key when
 * avoidable. The version is the tip (one conditional ref read) or a pinned commit of the section. A `list` at that
 * commit told the values follow (`withValues`) may have read its archive ahead (section-archives.ts): those values
 * are taken first and the archive is not downloaded again. Then:
 * 1. each key's blob SHA — from tree levels already cached (after a `list`), else from the archive, else from
 *    GraphQL (`object(expression: "<commit>:<key>")`, 100 keys per query, the bytes too when they are text),
 *    else one contents request per key (anonymous, bounded concurrency);
 * 2. each value — from the cache (never fetched twice), else the archive (GitHub's tarball of the commit,
 *    one API request + one codeload request; its tree checked against the commit's, archive-reads.ts) when at
 *    least {@link ARCHIVE_MIN_BLOBS} are missing and an archive reader is configured (Node), else GraphQL
 *    batches by oid, else `GET /git/blobs/{sha}` with bounded concurrency. Every byte is checked against its SHA.
 * Warm (tip unchanged, values cached): one 304.
 * With the `fewestRounds` hint at the tip (a search's rounds wait on each other) and a token, the tip and up to
 * 100 keys come from ONE GraphQL query (tip-files.ts) — unless the cache holds every value at the tip last seen,
 * when the conditional ref read (a 304) settles it as above. What that query cannot settle is read as above, at
 * the tip it named. The `childFiles` hint rides in that query too (tip-children.ts): the files it names go to the
 * cache at that tip, for the caller's next read at it to cost no request.
 */
import type { CachedCommit, GitCache } from '../../cache/git-cache.js';
import type { ReadManyItem } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import type { OpContext } from './client.js';
import type { ResolvedConfig } from './config.js';
import { eachLimited } from './each-limited.js';
import { GRAPHQL_BLOB_BATCH, type GraphqlDeps } from './graphql.js';
import { type BlobAt, blobsAt, blobsByOid } from './graphql-blobs.js';
import { type PathReadDeps, readPathAt } from './path-reads.js';
import type { SectionArchives } from './section-archives.js';
import type { ChildFiles } from './tip-children.js';
import { TIP_FILES_MAX, tipAndFiles } from './tip-files.js';
import type { TreeWalker } from './tree-walker.js';

export { BULK_CONCURRENCY, eachLimited } from './each-limited.js';

/** Fewest missing values for which the archive (2 requests, the whole section) beats batches. */
export const ARCHIVE_MIN_BLOBS = 64;

/** What the bulk reader borrows from the store. */
export interface BulkReadHost {
  cfg: Pick<ResolvedConfig, 'archive' | 'ref' | 'startAt'>;
  cache: Pick<GitCache, 'getBlob' | 'putBlob' | 'getCommit' | 'getRefTip'>;
  /** The commit's archive, and what a `list` read ahead (section-archives.ts). */
  archives: Pick<SectionArchives, 'read' | 'take'>;
  trees: Pick<TreeWalker, 'lookupCached' | 'lookup' | 'blob'>;
  paths: PathReadDeps;
  graphql: GraphqlDeps;
  readRef(ctx: OpContext): Promise<string | null>;
  /** Record a tip learned without the ref read (tip-files.ts), as the ref read records the tip it reads. */
  sawTip(ctx: OpContext, sha: string): Promise<void>;
  /**
   * This store's memory of whether GraphQL names its ref: `unseen` once a tip-and-files query found no ref that
   * the ref read then found (GitHub may not resolve every ref name there) — the query is not sent again.
   */
  tipQuery: { unseen: boolean };
  assertInSection(ctx: OpContext, version: string): Promise<void>;
  getCommit(ctx: OpContext, sha: string, pinned: boolean): Promise<CachedCommit>;
}

/** One bulk read in progress: what is known so far. */
interface Job {
  version: VersionId;
  pinned: boolean;
  /** key → blob SHA (null: no value there); keys not yet resolved are absent. */
  shas: Map<string, string | null>;
  /** Values read in this job (also cached, but the cache may evict during a large read). */
  values: Map<string, Uint8Array>;
  archived: boolean;
  /** Blobs GraphQL already answered without exact bytes (binary, truncated, not UTF-8): REST reads them. */
  restOnly: Set<string>;
}

/**
 * The values of `keys` at `pinned` (or the tip; with `fewestRounds`, read with the keys when that saves a round).
 *
 * @example
 * const items = await readManyAt(host, ctx, ['a.json', 'b.json'], undefined);
 */
export async function readManyAt(
  h: BulkReadHost,
  ctx: OpContext,
  keys: readonly string[],
  pinned: VersionId | undefined,
  fewestRounds = false,
  childFiles?: ChildFiles,
): Promise<ReadManyItem[]> {
  const job = await begin(h, ctx, keys, pinned, fewestRounds ? { childFiles } : undefined);
  if (job === null) return keys.map((key) => ({ key, value: null, blobSha: null, version: null }));
  const version = job.version;
  // What a `list` at this commit read ahead (its archive) is never downloaded again — even when over its limits.
  const ahead = h.archives.take(version);
  job.archived = ahead !== undefined;
  for (const [sha, bytes] of ahead?.blobs ?? []) job.values.set(sha, bytes);
  await resolveShas(h, ctx, job, keys);
  await walkUnresolved(h, ctx, job, keys);
  await resolveValues(h, ctx, job, keys);
  return keys.map((key) => {
    const sha = job.shas.get(key) ?? null;
    const value = sha === null ? null : (job.values.get(sha) ?? null);
    return { key, value: value ? value.slice() : null, blobSha: value ? sha : null, version };
  });
}

/**
 * The job's version and what is known at it: `pinned` (checked to be in the section), or the tip — with the keys
 * in one query when `fewestRounds` makes it worth it, else from the ref read. Null: no section yet.
 */
async function begin(
  h: BulkReadHost,
  ctx: OpContext,
  keys: readonly string[],
  pinned: VersionId | undefined,
  fewestRounds: { childFiles?: ChildFiles | undefined } | undefined,
): Promise<Job | null> {
  if (pinned !== undefined) {
    await h.assertInSection(ctx, pinned);
    return newJob(pinned, true);
  }
  const together = fewestRounds ? await tipWithKeys(h, ctx, keys, fewestRounds.childFiles) : undefined;
  if (together !== undefined && together !== 'no ref') return together;
  const tip = await h.readRef(ctx);
  // A ref the query did not see but the ref read did (not `startAt` standing in for an absent one): GraphQL does
  // not name it, so asking again would only add a request to every read.
  if (together === 'no ref' && tip !== null && tip !== h.cfg.startAt) h.tipQuery.unseen = true;
  return tip === null ? null : newJob(tip, false);
}

function newJob(version: VersionId, pinned: boolean): Job {
  return { version, pinned, shas: new Map(), values: new Map(), archived: false, restOnly: new Set() };
}

/**
 * The tip and what one GraphQL query read of `keys` at it (tip-files.ts), as a job begun; undefined when that
 * query is not worth it (no token, too many keys, every value cached at the tip last seen, a ref GraphQL did
 * not name before) or cannot answer; `'no ref'` when it answered without the ref.
 */
async function tipWithKeys(
  h: BulkReadHost,
  ctx: OpContext,
  keys: readonly string[],
  childFiles: ChildFiles | undefined,
): Promise<Job | 'no ref' | undefined> {
  if (ctx.token === undefined || keys.length === 0 || keys.length > TIP_FILES_MAX || h.tipQuery.unseen) {
    return undefined;
  }
  if (await cachedAtKnownTip(h, ctx, keys)) return undefined;
  const got = await tipAndFiles(h.graphql, ctx, h.cfg.ref, keys, childFiles);
  if (!got) return undefined;
  if (got.tip === null) return 'no ref';
  await h.sawTip(ctx, got.tip);
  const job = newJob(got.tip, false);
  // Not items of this read: cached at this tip, so the caller's next read at it finds them without a request.
  for (const [path, b] of got.children) {
    await h.paths.cache.putPath(got.tip, path, { sha: b.sha });
    await h.cache.putBlob(b.sha, b.bytes);
  }
  await settle(h, job, got.files);
  return job;
}

/** Record what a GraphQL read settled at the job's version: each key's blob SHA (null: none) and exact bytes. */
async function settle(h: BulkReadHost, job: Job, got: ReadonlyMap<string, BlobAt>): Promise<void> {
  for (const [key, b] of got) {
    job.shas.set(key, b?.sha ?? null);
    // (commit, path) → blob never changes: the next read of this key at this commit costs no request.
    await h.paths.cache.putPath(job.version, key, b ? { sha: b.sha } : { absent: true });
    if (b?.bytes) await keep(h, job, b.sha, b.bytes);
    else if (b) job.restOnly.add(b.sha); // its text was not exact: asking GraphQL again by oid would not help
  }
}

/** Every key's value is cached at the tip this store last read: a 304 would settle the read in one request. */
async function cachedAtKnownTip(h: BulkReadHost, ctx: OpContext, keys: readonly string[]): Promise<boolean> {
  const known = await h.cache.getRefTip(h.cfg.ref, ctx.tokenId);
  if (!known) return false;
  const probe = newJob(known.sha, false);
  await shasFromCachedLevels(h, probe, keys);
  await shasFromPathCache(h, probe, keys);
  return keys.every((k) => probe.shas.has(k)) && (await missingShas(h, probe, keys)).length === 0;
}

/** Each key's blob SHA, cheapest source first. */
async function resolveShas(h: BulkReadHost, ctx: OpContext, job: Job, keys: readonly string[]): Promise<void> {
  await shasFromCachedLevels(h, job, keys);
  await shasFromPathCache(h, job, keys);
  let open = keys.filter((k) => !job.shas.has(k));
  if (open.length >= ARCHIVE_MIN_BLOBS && h.cfg.archive && !job.archived) {
    await readArchive(h, ctx, job);
    await shasFromCachedLevels(h, job, open);
    open = open.filter((k) => !job.shas.has(k));
  }
  if (open.length > 0 && ctx.token !== undefined) {
    await settle(h, job, (await blobsAt(h.graphql, ctx, job.version, open)) ?? new Map());
    open = open.filter((k) => !job.shas.has(k));
  }
  await eachLimited(open, async (key) => {
    const found = await readPathAt(h.paths, ctx, job.version, key);
    if (found === undefined) return; // a symlink or submodule: left to `get`'s tree walk below
    job.shas.set(key, found?.sha ?? null);
    if (found) job.values.set(found.sha, found.value);
  });
}

/** Keys the contents endpoint could not settle (a symlink, a submodule): git's tree decides, as for `get`. */
async function walkUnresolved(h: BulkReadHost, ctx: OpContext, job: Job, keys: readonly string[]): Promise<void> {
  const open = keys.filter((k) => !job.shas.has(k));
  if (open.length === 0) return;
  const commit = await h.getCommit(ctx, job.version, job.pinned);
  for (const key of open) {
    const at = await h.trees.lookup(ctx, commit.tree, key, 'single');
    job.shas.set(key, at.kind === 'blob' ? at.sha : null);
  }
}

/** Keys an earlier read at this commit resolved (contents or GraphQL answers are cached per commit and path). */
async function shasFromPathCache(h: BulkReadHost, job: Job, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    if (job.shas.has(key)) continue;
    const known = await h.paths.cache.getPath(job.version, key);
    if (known) job.shas.set(key, 'absent' in known ? null : known.sha);
  }
}

async function shasFromCachedLevels(h: BulkReadHost, job: Job, keys: readonly string[]): Promise<void> {
  const commit = await h.cache.getCommit(job.version);
  if (!commit) return;
  for (const key of keys) {
    if (job.shas.has(key)) continue;
    const at = await h.trees.lookupCached(commit.tree, key);
    if (at !== undefined) job.shas.set(key, at.kind === 'blob' ? at.sha : null);
  }
}

/**
 * Each value whose SHA is known: cache, archive, GraphQL by oid, then the blobs endpoint — for what GraphQL
 * cannot give exactly (`isBinary`, `isTruncated`, text that does not hash back) and for anonymous reads.
 */
async function resolveValues(h: BulkReadHost, ctx: OpContext, job: Job, keys: readonly string[]): Promise<void> {
  let missing = await missingShas(h, job, keys);
  if (missing.length >= ARCHIVE_MIN_BLOBS && h.cfg.archive && !job.archived) {
    await readArchive(h, ctx, job);
    missing = missing.filter((sha) => !job.values.has(sha));
  }
  const byOid = missing.filter((sha) => !job.restOnly.has(sha));
  if (byOid.length > 0 && ctx.token !== undefined) {
    for (let i = 0; i < byOid.length; i += GRAPHQL_BLOB_BATCH) {
      const got = await blobsByOid(h.graphql, ctx, byOid.slice(i, i + GRAPHQL_BLOB_BATCH));
      if (!got) break;
      for (const [sha, bytes] of got) await keep(h, job, sha, bytes);
    }
    missing = missing.filter((sha) => !job.values.has(sha));
  }
  await eachLimited(missing, async (sha) => {
    job.values.set(sha, await h.trees.blob(ctx, sha));
  });
}

/** Distinct SHAs of the keys whose values are neither read in this job nor cached (cached ones are taken). */
async function missingShas(h: BulkReadHost, job: Job, keys: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const key of keys) {
    const sha = job.shas.get(key);
    if (!sha || job.values.has(sha) || out.has(sha)) continue;
    const cached = await h.cache.getBlob(sha);
    if (cached) job.values.set(sha, cached);
    else out.add(sha);
  }
  return [...out];
}

async function keep(h: BulkReadHost, job: Job, sha: string, bytes: Uint8Array): Promise<void> {
  job.values.set(sha, bytes);
  await h.cache.putBlob(sha, bytes);
}

/**
 * The commit's archive (section-archives.ts), once per job. An archive over its limits gives nothing: the batched
 * reads that follow read the values instead.
 */
async function readArchive(h: BulkReadHost, ctx: OpContext, job: Job): Promise<void> {
  job.archived = true;
  for (const [sha, bytes] of (await h.archives.read(ctx, job.version, job.pinned)) ?? []) job.values.set(sha, bytes);
}
