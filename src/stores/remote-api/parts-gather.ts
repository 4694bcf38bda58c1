/**
 * The first phase of a commit in parts (parts-loop.ts): each part is checked, planned against the tip's
 * tree and its tree entries join the chain of create-tree requests as soon as one is full, so only one
 * part, one request's worth of content, and each key with its blob SHA are held in memory.
 */
import { InvalidKey } from '../../core/errors.js';
import { assertNoPathConflicts, normalizeChanges, planWrite } from '../../core/plan.js';
import type { Change } from '../../core/refstore.js';
import type { TouchedBy } from './catch-up.js';
import type { OpContext } from './client.js';
import { collapseDeletes } from './delete-collapse.js';
import { touchesKeySet } from './stale-tip.js';
import type { TreeUpload, UploadChange } from './tree-upload.js';
import { assertCanWrite, currentShas, type Normalized, type WriteHost } from './write-host.js';

/** The keys a commit in parts writes and deletes (in the order their parts came). */
export interface PartsPlan {
  written: string[];
  deleted: string[];
}

/**
 * @example
 * const gathered = new PartsGatherer(host, ctx, base.tree);
 * for await (const part of parts) await gathered.add(part);
 * const tree = await gathered.finish(); // null: nothing to write
 */
export class PartsGatherer {
  /** Every key of the write with its blob SHA (null: delete). */
  readonly desired = new Map<string, string | null>();
  readonly plan: PartsPlan = { written: [], deleted: [] };
  /** The directories of the put keys (a key may not be one). */
  private readonly dirs = new Set<string>();
  /** The directories of every key (a file another writer puts there touches the write). */
  private readonly keyDirs = new Set<string>();
  private upload: TreeUpload | undefined;
  /** Keys to delete, sent by `finish` (after every put). */
  private readonly unsentDeletes = new Set<string>();

  /** The directory whose ancestors were last added, for puts (to `dirs` and `keyDirs`) and for deletes. */
  private putRun = '';
  private keyRun = '';

  constructor(
    private readonly h: WriteHost,
    private readonly ctx: OpContext,
    /** The tip's tree every part is planned against. */
    private readonly baseTree: string | null,
  ) {}

  /** Whether changed files of another writer touch this write (a key, a directory above or below one). */
  readonly touchedBy: TouchedBy = (files) =>
    touchesKeySet(
      files,
      (k) => this.desired.has(k),
      (d) => this.keyDirs.has(d),
    );

  /** Check, plan and upload one part. */
  async add(part: readonly Change[]): Promise<void> {
    if (!Array.isArray(part)) throw new TypeError('each part must be an array of changes');
    const changes = normalizeChanges(part);
    this.assertNew(changes);
    this.remember(changes);
    const current = await currentShas(this.h.trees, this.ctx, this.baseTree, changes);
    const p = planWrite(changes, (k) => current.get(k));
    for (const k of p.written) this.plan.written.push(k);
    for (const k of p.deleted) {
      this.plan.deleted.push(k);
      this.unsentDeletes.add(k);
    }
    if (p.treeChanges.length === 0) return;
    assertCanWrite(this.ctx, this.h.repository);
    this.upload ??= this.h.objects.treeUpload(this.ctx, this.baseTree);
    // A put below a key of the base tree is refused above (currentShas), deleted or not: holding the
    // deletes back never leaves a put waiting for one.
    await this.upload.add(p.treeChanges.filter((c) => c.sha !== null));
  }

  /**
   * Send the deletes, then `after` (the commit's derived changes: index files), then what is queued; the new
   * root tree, or null when nothing changes at all. Puts go as their parts come; deletes wait for the last
   * part, so that a directory all of whose keys go is one entry (delete-collapse.ts) — unless a put of this
   * write lands in it. `after` joins the same chain of requests, so it fills the documents' last, partly
   * filled request instead of starting a request of its own (issue 42: one request fewer per first write).
   */
  async finish(after: readonly UploadChange[] = []): Promise<string | null> {
    if (!this.upload && after.length === 0) return null;
    if (!this.upload) assertCanWrite(this.ctx, this.h.repository);
    this.upload ??= this.h.objects.treeUpload(this.ctx, this.baseTree);
    const deleted = [...this.unsentDeletes];
    if (deleted.length > 0) {
      const level = (sha: string) => this.h.trees.cachedLevel(sha);
      await this.upload.add(await collapseDeletes(level, this.baseTree, deleted, (d) => this.dirs.has(d)));
    }
    await this.upload.add(after);
    return await this.upload.finish();
  }

  /** A key may appear once in the whole commit, and no put key may be a directory of another. */
  private assertNew(changes: Normalized): void {
    for (const c of changes) {
      if (this.desired.has(c.key)) {
        throw new InvalidKey(c.key, 'duplicate', `key ${JSON.stringify(c.key)} appears more than once in one commit`);
      }
    }
    assertNoPathConflicts(changes, {
      isFile: (p) => typeof this.desired.get(p) === 'string',
      isDir: (p) => this.dirs.has(p),
    });
  }

  private remember(changes: Normalized): void {
    for (const c of changes) {
      this.desired.set(c.key, c.op === 'put' ? c.sha : null);
      // The directories of a run of keys in one directory are added once (no substring per key).
      const last = c.key.lastIndexOf('/');
      const run = c.op === 'put' ? this.putRun : this.keyRun;
      if (last <= 0 || (last === run.length && c.key.startsWith(run))) continue;
      for (let i = c.key.indexOf('/'); i > 0; i = c.key.indexOf('/', i + 1)) {
        const dir = c.key.slice(0, i);
        this.keyDirs.add(dir);
        if (c.op === 'put') this.dirs.add(dir);
      }
      if (c.op === 'put') this.putRun = c.key.slice(0, last);
      else this.keyRun = c.key.slice(0, last);
    }
  }
}
