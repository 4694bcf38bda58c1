/**
 * Versions of a section on the GitHub API: "is this commit in the section?" and `changes()` between
 * two versions. Kept out of remote-api-refstore.ts: the store hands over its readers (`VersionsHost`).
 *
 * Section check, cheapest first (see docs/documents.md "Reading what changed" for the costs):
 * 1. commits already proven to be in the section (cached: commits are immutable) → 0 requests;
 * 2. the version is the tip, or on the first-parent chain of the tip through commits already in the
 *    cache (e.g. the parent of a tip just read) → 0 requests;
 * 3. `GET /repos/{o}/{r}/commits?sha=<tip or ref>&per_page=100`, page by page, until the version shows
 *    up (1 request per 100 commits between the tip and the version; every listed commit is cached,
 *    so the commit itself costs nothing afterwards). A version never listed is `InvalidVersion`.
 * GitHub's compare API (`GET /compare/{base}...{head}`) would answer in one request at any distance,
 * but it returns up to 300 files with patches (a heavy reply) and is not served by the emulator yet;
 * the commit list is already used (history) and validated against GitHub's OpenAPI description.
 */
import type { CachedCommit, CachedTreeEntry } from '../../cache/git-cache.js';
import { InvalidResponse, InvalidVersion } from '../../core/errors.js';
import { diffTrees } from '../../core/git/tree-diff.js';
import { type ChangesOptions, type ChangesResult, keyChanges } from '../../core/refstore.js';
import { compactedOrNotInSection, notInSection } from '../../core/section.js';
import { nextLink, nextPageOnApiOrigin, type OpContext, type SendOptions, type SendResult } from './client.js';
import { changesByCompare } from './compare-changes.js';
import type { GraphqlDeps } from './graphql.js';
import { listedCommit } from './shapes.js';

/** What the store lends to this module (all bound to one store instance). */
export interface VersionsHost {
  ref: string;
  apiOrigin: string;
  send(ctx: OpContext, opts: SendOptions): Promise<SendResult>;
  readRef(ctx: OpContext): Promise<string | null>;
  /** The cached tip (no request), if any. */
  cachedTip(ctx: OpContext): Promise<string | undefined>;
  cachedCommit(sha: string): Promise<CachedCommit | undefined>;
  putCommit(c: CachedCommit): Promise<void>;
  getCommit(ctx: OpContext, sha: string, pinned: boolean): Promise<CachedCommit>;
  /** One tree level (recursive fetch fills the levels below it too). */
  treeLevel(ctx: OpContext, sha: string): Promise<CachedTreeEntry[]>;
  /** Commits proven to be in the section. */
  known: Set<string>;
  /** GraphQL (old blob SHAs for changes by compare). */
  graphql: GraphqlDeps;
}

/** True when `version` is on the first-parent chain of `tip` through cached commits (no requests). */
async function onCachedChain(h: VersionsHost, version: string, tip: string): Promise<boolean> {
  let sha: string | undefined = tip;
  for (let i = 0; i < 10_000 && sha !== undefined; i++) {
    if (sha === version) return true;
    sha = (await h.cachedCommit(sha))?.parents[0];
  }
  return false;
}

/**
 * Throw `InvalidVersion` unless `version` is a commit of the section. `tip` is the tip when the
 * caller already read it (else the ref name is given to the commit list, which costs no ref read).
 *
 * @example
 * await assertInSection(host, ctx, version); // 0 requests when cached, else 1 per 100 commits back
 */
export async function assertInSection(
  h: VersionsHost,
  ctx: OpContext,
  version: string,
  tip?: string | null,
): Promise<void> {
  if (h.known.has(version)) return;
  const hint = tip === undefined ? await h.cachedTip(ctx) : tip;
  if (hint && (await onCachedChain(h, version, hint))) {
    h.known.add(version);
    return;
  }
  if (tip === null) throw notInSection(version, h.ref);
  let start: string = tip ?? h.ref;
  let url: string | undefined;
  const listed: string[] = [];
  const messages: { version: string; message: string }[] = [];
  for (;;) {
    const res = await h.send(ctx, {
      step: 'list section commits',
      method: 'GET',
      ...(url === undefined ? { path: '/commits', query: { sha: start, per_page: '100' } } : { url }),
      retry: true,
      accept: url === undefined && start === h.ref ? [404, 422] : [],
    });
    if (res.status === 404 || res.status === 422) {
      // The host did not resolve the ref name (or the section does not exist): use the tip's SHA.
      const now = await h.readRef(ctx);
      if (now === null) throw notInSection(version, h.ref);
      start = now;
      continue;
    }
    const list = res.json();
    if (!Array.isArray(list)) {
      throw new InvalidResponse(`${ctx.operation}: list section commits returned an unexpected body`, {
        operation: ctx.operation,
        step: 'list section commits',
      });
    }
    // The whole page is kept as known, not only up to the version: the next version asked (a chart's
    // older versions) is then proven without another listing.
    let found = false;
    for (const item of list) {
      const c = listedCommit(item);
      if (!c) continue;
      listed.push(c.sha);
      messages.push({ version: c.sha, message: c.message });
      if (!(await h.cachedCommit(c.sha))) await h.putCommit(c);
      if (c.sha === version) found = true;
    }
    if (found) {
      for (const s of listed) h.known.add(s);
      return;
    }
    const next = nextLink(res.headers.link);
    if (!next) break;
    // Never send the token to another origin; an unfinished walk is not a "not found" either.
    url = nextPageOnApiOrigin(ctx, h.apiOrigin, next, `${ctx.operation}: the section's commits`);
  }
  for (const s of listed) h.known.add(s);
  throw compactedOrNotInSection(version, h.ref, messages);
}

/**
 * InvalidVersion unless `from` is at or below `to`. A `from` that is a version of the section but not below
 * `to` (the two given the wrong way round) is said as every store says it, not as "not in the section":
 * that check costs the walk from the tip, on this error path only.
 */
async function assertFromBelow(h: VersionsHost, ctx: OpContext, from: string, to: string, tip: string): Promise<void> {
  try {
    await assertInSection(h, ctx, from, to);
  } catch (error) {
    if (!(error instanceof InvalidVersion) || to === tip) throw error;
    const inSection = await assertInSection(h, ctx, from, tip).then(
      () => true,
      () => false,
    );
    if (!inSection) throw error;
    throw new InvalidVersion(from, `from ${from} is not an ancestor of to ${to}; pass the older version as from`);
  }
}

/**
 * `changes()` on the API: read the tip (unless `to` is given and known), then one compare of the two versions
 * (compare-changes.ts: ≤ 300 files, old blob SHAs by GraphQL) — 2 or 3 requests at any section size. Beyond
 * what a compare can say, check both versions are in the section and diff the two root trees level by level,
 * fetching only levels not cached (cold: ref + 2 commits + 2 recursive tree listings).
 */
export async function changesBetween(h: VersionsHost, ctx: OpContext, options: ChangesOptions): Promise<ChangesResult> {
  // A `to` already proven to be in the section (listed by `commits()` or `history()`: a walk over consecutive
  // versions) needs no tip; the compare proves `from` below it. The tip is read only when the compare cannot answer.
  // The cached tip counts as proven too: it was the ref's value (a page that just read the ref compares up to it).
  const proven =
    options.to !== undefined &&
    options.to !== options.from &&
    (h.known.has(options.to) || (await h.cachedTip(ctx)) === options.to);
  // A `to` given is proven by the section's commit list from the ref NAME (one request; no ref read first): the
  // tip itself is read only when the compare cannot answer.
  let tip = proven || options.to !== undefined ? undefined : await h.readRef(ctx);
  if (tip === null) throw notInSection(options.from, h.ref);
  const to = options.to ?? (tip as string);
  if (!proven && options.to !== undefined) await assertInSection(h, ctx, to);
  // Up to 300 changed files: one compare (+ one GraphQL query for old blob SHAs) instead of two listings.
  const quick =
    options.from === to
      ? undefined
      : await changesByCompare(h, ctx, options.from, to, options.prefix ?? '', options.withPatches === true);
  if (quick) return { from: options.from, to, ...keyChanges(quick) };
  tip ??= await h.readRef(ctx);
  if (tip === null) throw notInSection(options.from, h.ref);
  const toCommit = await h.getCommit(ctx, to, true);
  await assertFromBelow(h, ctx, options.from, to, tip);
  const fromCommit = await h.getCommit(ctx, options.from, true);
  if (options.from !== to && !(await onCachedChain(h, options.from, to))) {
    // Both are in the section; "from" must also be older than "to" (the section is linear).
    if (await onCachedChain(h, to, options.from)) {
      throw new InvalidVersion(
        options.from,
        `from ${options.from} is not an ancestor of to ${to}; pass the older version as from`,
      );
    }
  }
  const d = await diffTrees(fromCommit.tree, toCommit.tree, (sha) => h.treeLevel(ctx, sha), options.prefix ?? '');
  return { from: options.from, to, ...keyChanges(d) };
}
