/**
 * Derived changes (`CommitOptions.derive`, src/core/derive.ts) on the GitHub API: the hook's `read(keys)` at
 * the tip one attempt builds on, and the blob SHAs of the keys it then changes, the cheapest way there is:
 * 1. tree levels already cached (a write's own path lookup caches the root level, so a section without
 *    `_docdb/` proves its index keys absent for free; right after this store's own write every level and
 *    blob it wrote is cached) — no request;
 * 2. else ONE GraphQL query for every missing key (`object(expression: "<commit>:<key>")` aliases, the text
 *    with it; the keys' directories asked for their type only, so an absent key is told from one below a
 *    value) — a blob GraphQL cannot give exactly (binary, truncated) is read by SHA;
 * 3. without a token (or when GraphQL cannot answer): contents reads in parallel, and the tree walk.
 * Every answer is untrusted: each request is capped by the client (`maxResponseBytes`) and every value must
 * hash to its blob SHA. https://docs.github.com/graphql/reference/objects#blob
 */

import type { GitCache } from '../../cache/git-cache.js';
import { derivedChanges } from '../../core/derive.js';
import { InvalidKey } from '../../core/errors.js';
import { assertValidKey } from '../../core/keys.js';
import type { normalizeChanges } from '../../core/plan.js';
import type { DeriveChanges, DerivedRead } from '../../core/refstore.js';
import type { OpContext } from './client.js';
import { eachLimited } from './each-limited.js';
import { type GraphqlDeps, type ObjectAsk, type ObjectAt, objectsAt } from './graphql.js';
import { type PathReadDeps, readPathAt } from './path-reads.js';
import type { Lookup, TreeWalker } from './tree-walker.js';

/** Changes after `normalizeChanges` (each put with its blob SHA and bytes). */
type Normalized = ReturnType<typeof normalizeChanges>;

/** What the derived reads borrow from the store. */
export interface DerivedReadHost {
  cache: Pick<GitCache, 'getBlob' | 'putBlob' | 'getPath' | 'putPath' | 'getTree' | 'putTree'>;
  trees: Pick<TreeWalker, 'lookupCached' | 'lookup' | 'blob'>;
  paths: PathReadDeps;
  graphql: GraphqlDeps;
}

/** The tip an attempt builds on: its commit and that commit's tree (null: the section does not exist yet). */
export type AttemptTip = { commit: string; tree: string } | null;

/**
 * One attempt's derived changes, and the blob SHA of each of their keys at the attempt's tip (absent keys
 * left out), for the plan. No hook: none, at no cost.
 *
 * @example
 * const d = await deriveAt(host, ctx, options.derive, changes, { commit: tip, tree: base.tree });
 * const plan = planWrite([...changes, ...d.changes], (k) => current.get(k) ?? d.current.get(k));
 */
export async function deriveAt(
  h: DerivedReadHost,
  ctx: OpContext,
  hook: DeriveChanges | undefined,
  own: readonly { key: string; sha?: string }[],
  tip: AttemptTip,
  probe: readonly string[] = [],
): Promise<{ changes: Normalized; current: Map<string, string> }> {
  if (hook === undefined) return { changes: [], current: new Map() };
  const view = new DerivedView(h, ctx, tip, probe);
  const changes = await derivedChanges(hook, own, tip?.commit ?? null, (keys) => view.read(keys));
  return { changes, current: changes.length > 0 ? await view.currentShas(changes) : new Map() };
}

/**
 * What one attempt learned about keys at its tip: what each key is (`known`, exact) and the values read.
 *
 * @example
 * const view = new DerivedView(host, ctx, { commit: tip, tree });
 * const got = await view.read(['_docdb/indexes.json']); // Map { key → { value, blobSha } | null }
 */
export class DerivedView {
  /** Exactly what each key is at the tip (the plan needs blob SHAs and path conflicts). */
  private readonly known = new Map<string, Lookup>();
  /** Values read in this attempt, by blob SHA (also cached, but a cache may evict). */
  private readonly values = new Map<string, Uint8Array>();

  constructor(
    private readonly h: DerivedReadHost,
    private readonly ctx: OpContext,
    private readonly tip: AttemptTip,
    /**
     * Keys of the write itself whose uncached path levels join the first GraphQL query (the levels its plan
     * would otherwise fetch in a request of its own, tree-walker.ts `lookup`).
     */
    private probe: readonly string[] = [],
  ) {}

  /** The hook's reader: each key's value and blob SHA at the tip, or null (absent, or not a value). */
  async read(keys: readonly string[]): Promise<Map<string, DerivedRead | null>> {
    if (!Array.isArray(keys)) throw new TypeError('read(keys): keys must be an array of keys');
    const unique = [...new Set(keys)];
    for (const k of unique) assertValidKey(k);
    const out = new Map<string, DerivedRead | null>();
    if (this.tip === null) {
      for (const k of unique) out.set(k, null);
      return out;
    }
    await this.resolve(this.tip, unique, true);
    const shas = unique.map((k) => this.blobSha(k)).filter((s): s is string => s !== undefined);
    await eachLimited([...new Set(shas)], async (sha) => {
      if (!this.values.has(sha)) this.values.set(sha, await this.h.trees.blob(this.ctx, sha));
    });
    for (const k of unique) {
      const sha = this.blobSha(k);
      const value = sha === undefined ? undefined : this.values.get(sha);
      out.set(k, sha !== undefined && value ? { value: value.slice(), blobSha: sha } : null);
    }
    return out;
  }

  /**
   * The blob SHA of each changed key at the tip (absent keys left out); a put where a directory is, or
   * below another key, is an `InvalidKey` conflict (as write-host.ts `currentShas` for the write's own keys).
   */
  async currentShas(changes: Normalized): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (this.tip === null) return out;
    await this.resolve(this.tip, [...new Set(changes.map((c) => c.key))], false);
    for (const c of changes) {
      const at = this.known.get(c.key) ?? (await this.h.trees.lookup(this.ctx, this.tip.tree, c.key, 'single'));
      if (c.op === 'put' && (at.kind === 'conflict' || at.kind === 'tree')) {
        const why =
          at.kind === 'tree' ? 'it is a directory of other keys' : `${JSON.stringify(at.at)} is a key, not a directory`;
        throw new InvalidKey(c.key, 'conflict', `a derived change cannot write ${JSON.stringify(c.key)}: ${why}`);
      }
      if (at.kind === 'blob') out.set(c.key, at.sha);
    }
    return out;
  }

  private blobSha(key: string): string | undefined {
    const at = this.known.get(key);
    return at?.kind === 'blob' ? at.sha : undefined;
  }

  /**
   * Learn what each key is (and, `withText`, its value): cached levels and the path cache, then ONE GraphQL
   * query for every key still open — a key known to be a blob whose value is not at hand joins it too —
   * then, without GraphQL, REST.
   */
  private async resolve(tip: NonNullable<AttemptTip>, keys: readonly string[], withText: boolean): Promise<void> {
    const open: string[] = [];
    for (const key of keys) {
      const at = this.known.get(key) ?? (await this.fromCaches(tip, key));
      if (at === undefined || (withText && at.kind === 'blob' && !(await this.hasValue(at.sha)))) open.push(key);
    }
    if (open.length === 0) return;
    if (await this.fromGraphql(tip, open, withText)) return;
    if (withText)
      await this.fromContents(
        tip,
        open.filter((k) => !this.known.has(k)),
      );
  }

  /** What `key` is from cached levels or the path cache (no request); undefined when neither knows. */
  private async fromCaches(tip: NonNullable<AttemptTip>, key: string): Promise<Lookup | undefined> {
    const cached = await this.h.trees.lookupCached(tip.tree, key);
    const path = cached ? undefined : await this.h.cache.getPath(tip.commit, key);
    // A cached path that holds a blob is exact; a cached absence may be a directory (not exact for a plan).
    const at = cached ?? (path && 'sha' in path ? ({ kind: 'blob', sha: path.sha } as const) : undefined);
    if (at) this.known.set(key, at);
    return at;
  }

  /** Whether the blob's bytes are at hand (read in this attempt, or cached). */
  private async hasValue(sha: string): Promise<boolean> {
    if (this.values.has(sha)) return true;
    const cached = await this.h.cache.getBlob(sha);
    if (cached) this.values.set(sha, cached);
    return cached !== undefined;
  }

  /**
   * One GraphQL query for the open keys, with the tree levels on their paths that are not cached (as a
   * single-key write's probe, graphql.ts `pathLevels`): cached, they make every later question about those
   * directories free — the derived keys' own plan, and the local trees of this write (object-writer.ts), so a
   * write right after this one reads nothing it wrote. False when GraphQL cannot answer.
   */
  private async fromGraphql(
    tip: NonNullable<AttemptTip>,
    keys: readonly string[],
    withText: boolean,
  ): Promise<boolean> {
    if (this.ctx.token === undefined) return false;
    // The write's own keys (`probe`) join the first query with their values too: index maintenance reads a
    // written document's previous version next, which then costs nothing.
    const extra = this.probe.filter((k) => !keys.includes(k) && !this.known.has(k));
    const all = [...keys, ...extra];
    const dirs = new Set<string>();
    for (const k of [...keys, ...this.probe]) {
      if (!this.known.has(k)) for (const d of await this.uncachedDirs(tip.tree, k)) dirs.add(d);
    }
    this.probe = [];
    const asked = new Set(all);
    const asks: ObjectAsk[] = keys.map((path) => ({ path, want: withText ? 'text' : 'type' }));
    for (const path of extra) asks.push({ path, want: 'text' });
    for (const path of dirs) if (!asked.has(path)) asks.push({ path, want: 'level' });
    const got = await objectsAt(this.h.graphql, this.ctx, tip.tree, asks);
    if (!got) return false;
    for (const [sha, level] of got.levels) await this.h.cache.putTree(sha, level);
    for (const key of all) await this.learn(tip, key, got.objects);
    return true;
  }

  /** Record what a query said about `key`: what it is (cached levels first, exact), its value, the path cache. */
  private async learn(
    tip: NonNullable<AttemptTip>,
    key: string,
    objects: ReadonlyMap<string, ObjectAt>,
  ): Promise<void> {
    const at = this.known.get(key) ?? (await this.h.trees.lookupCached(tip.tree, key)) ?? lookupFrom(key, objects);
    this.known.set(key, at);
    const o = objects.get(key);
    if (o?.type === 'Blob' && o.bytes) {
      this.values.set(o.oid, o.bytes);
      await this.h.cache.putBlob(o.oid, o.bytes);
    }
    await this.h.cache.putPath(tip.commit, key, at.kind === 'blob' ? { sha: at.sha } : { absent: true });
  }

  /** The directories above `key` (the root is '') whose tree level is not cached, top down. */
  private async uncachedDirs(root: string, key: string): Promise<string[]> {
    const segs = key.split('/');
    const dirs = segs.slice(0, -1).map((_, i) => segs.slice(0, i + 1).join('/'));
    dirs.unshift('');
    let sha = root;
    for (let i = 0; i < dirs.length; i++) {
      const level = await this.h.cache.getTree(sha);
      if (!level) return dirs.slice(i);
      const e = level.find((x) => x.name === segs[i]);
      if (e?.type !== 'tree') return []; // absent or a value: the cached levels already answer
      sha = e.sha;
    }
    return [];
  }

  /** Without GraphQL: one contents read per key, in parallel (what it cannot settle is left to the tree walk). */
  private async fromContents(tip: NonNullable<AttemptTip>, keys: readonly string[]): Promise<void> {
    await eachLimited(keys, async (key) => {
      const found = await readPathAt(this.h.paths, this.ctx, tip.commit, key);
      if (found === undefined) return; // a symlink or submodule: the tree decides (currentShas, or null to read)
      if (found) {
        this.known.set(key, { kind: 'blob', sha: found.sha });
        this.values.set(found.sha, found.value);
      }
    });
  }
}

/** What `key` is, from the objects its path names (the key and each directory above it). */
function lookupFrom(key: string, got: ReadonlyMap<string, ObjectAt>): Lookup {
  const o = got.get(key);
  if (o?.type === 'Blob') return { kind: 'blob', sha: o.oid };
  if (o?.type === 'Tree') return { kind: 'tree', sha: o.oid };
  if (o?.type === 'other') return { kind: 'conflict', at: key };
  // Nothing at the key: absent, unless a directory on its way is a value (then the key is below a value).
  for (let i = key.indexOf('/'); i > 0; i = key.indexOf('/', i + 1)) {
    const dir = got.get(key.slice(0, i));
    if (dir === null || dir === undefined) return { kind: 'absent' };
    if (dir.type !== 'Tree') return { kind: 'conflict', at: key.slice(0, i) };
  }
  return { kind: 'absent' };
}
