/**
 * A content-addressed, in-memory git object database plus refs with compare-and-swap.
 * Shared by MemoryRefStore and the GitHub API emulator so both produce the same real git objects.
 */

import { appendAll } from '../arrays.js';
import { utf8 } from '../bytes.js';
import {
  type CommitFields,
  decodeCommit,
  decodeTree,
  encodeCommit,
  encodeTree,
  hashObject,
  type ObjectType,
  type TreeEntry,
  type TreeMode,
} from './objects.js';
import {
  compareSpliced,
  EMPTY_LEVEL,
  encodeEntry,
  entryNamed,
  findEntry,
  isTreePath,
  levelOf,
  levelSize,
  type SplicedEntry,
  spliceLevel,
  type TreeLevel,
} from './tree-splice.js';

/** SHA of the empty tree (`git hash-object -t tree /dev/null`). */
export const EMPTY_TREE_SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** One change to a tree, addressed by a slash-separated path (like `POST /git/trees` entries). */
export interface TreeChange {
  path: string;
  mode: TreeMode;
  /** Object id to place at `path`; `null` deletes the path. */
  sha: string | null;
}

/** A flattened tree entry with its full path. */
export interface FlatEntry {
  path: string;
  mode: TreeMode;
  type: ObjectType;
  sha: string;
}

/** Raised for object-level problems (missing objects, bad paths); callers map it to their own errors. */
export class ObjectDbError extends Error {
  constructor(
    readonly reason: 'missing-object' | 'wrong-type' | 'missing-path' | 'path-conflict' | 'bad-path',
    message: string,
  ) {
    super(message);
    this.name = 'ObjectDbError';
  }
}

interface StoredObject {
  type: ObjectType;
  body: Uint8Array;
}

/** What changed in an ObjectDb: a new object (never an existing one) or a ref moved, created or deleted. */
export type ObjectDbChange =
  | { kind: 'object'; sha: string; type: ObjectType; body: Uint8Array }
  | { kind: 'ref'; name: string; sha: string | null };

export function typeOfMode(mode: TreeMode): ObjectType {
  if (mode === '040000') return 'tree';
  if (mode === '160000') return 'commit';
  return 'blob';
}

/**
 * In-memory object database.
 *
 * @example
 * const db = new ObjectDb();
 * const blob = db.putBlob(utf8('hi\n'));
 * const tree = db.applyTreeChanges(null, [{ path: 'a/b.txt', mode: '100644', sha: blob }]);
 */
export class ObjectDb {
  private readonly objects = new Map<string, StoredObject>();
  private readonly refs = new Map<string, string>();
  /**
   * Decoded trees by SHA (name → entry), so a path lookup is a few map reads instead of decoding and
   * scanning every level's bytes. Trees are immutable, so entries never go stale; the cache is bounded
   * by total entries and simply dropped when full (it is rebuilt on demand).
   */
  private readonly decoded = new Map<string, Map<string, TreeEntry>>();
  private decodedEntries = 0;
  /** Trees indexed for splicing (tree-splice.ts), bounded like `decoded`. */
  private readonly levels = new Map<string, TreeLevel>();
  private levelEntries = 0;
  /** Upper bound on cached decoded tree entries (≈100 bytes each). */
  static readonly DECODED_TREE_LIMIT = 500_000;
  /** Told of every new object and ref change before it is made, synchronously and in order (the emulator's --data-dir journal). */
  private observer: ((change: ObjectDbChange) => void) | undefined;

  /**
   * Be told of every change from now on (one observer; `undefined` stops), just before it is made: a
   * throwing observer fails the write that caused the change and leaves it unmade, so what an observer
   * journals and what is in memory never differ.
   *
   * @example
   * db.observe((c) => journal.append(c));
   */
  observe(observer: ((change: ObjectDbChange) => void) | undefined): void {
    this.observer = observer;
  }

  /** Store an object body; returns its id. Idempotent. `owned`: the caller hands the buffer over (no copy). */
  put(type: ObjectType, body: Uint8Array, owned = false): string {
    const sha = hashObject(type, body);
    if (!this.objects.has(sha)) this.add(sha, type, owned ? body : body.slice());
    return sha;
  }

  private add(sha: string, type: ObjectType, body: Uint8Array): void {
    this.observer?.({ kind: 'object', sha, type, body });
    this.objects.set(sha, { type, body });
  }

  has(sha: string): boolean {
    return this.objects.has(sha);
  }

  /** The stored object, or undefined. */
  get(sha: string): { type: ObjectType; body: Uint8Array } | undefined {
    return this.objects.get(sha);
  }

  /** Number of objects stored (for tests and export). */
  get size(): number {
    return this.objects.size;
  }

  /** Every object id (for export to a real repository). */
  objectIds(): IterableIterator<string> {
    return this.objects.keys();
  }

  private require(sha: string, type: ObjectType): Uint8Array {
    const o = this.objects.get(sha);
    if (!o) throw new ObjectDbError('missing-object', `object ${sha} does not exist`);
    if (o.type !== type) throw new ObjectDbError('wrong-type', `object ${sha} is a ${o.type}, not a ${type}`);
    return o.body;
  }

  putBlob(bytes: Uint8Array, owned = false): string {
    return this.put('blob', bytes, owned);
  }

  getBlob(sha: string): Uint8Array {
    return this.require(sha, 'blob');
  }

  putTree(entries: readonly TreeEntry[]): string {
    const sha = this.put('tree', encodeTree(entries));
    if (!this.decoded.has(sha)) {
      // encodeTree validated the entries; normalise the subtree mode as decodeTree would.
      this.remember(
        sha,
        new Map(
          entries.map((e) => [
            e.name,
            { mode: e.mode === ('40000' as TreeMode) ? '040000' : e.mode, name: e.name, sha: e.sha },
          ]),
        ),
      );
    }
    return sha;
  }

  private remember(sha: string, index: Map<string, TreeEntry>): void {
    if (this.decodedEntries + index.size > ObjectDb.DECODED_TREE_LIMIT) {
      this.decoded.clear();
      this.decodedEntries = 0;
    }
    this.decoded.set(sha, index);
    this.decodedEntries += index.size;
  }

  /**
   * A tree's entries by name (decoded once, then served from memory). The map is shared: do not mutate it.
   *
   * @example
   * db.treeIndex(rootSha).get('README.md')?.sha
   */
  treeIndex(sha: string): ReadonlyMap<string, TreeEntry> {
    let index = this.decoded.get(sha);
    if (!index) {
      index = new Map(decodeTree(this.require(sha, 'tree')).map((e) => [e.name, e]));
      this.remember(sha, index);
    }
    return index;
  }

  getTree(sha: string): TreeEntry[] {
    return decodeTree(this.require(sha, 'tree'));
  }

  putCommit(fields: CommitFields): string {
    return this.put('commit', encodeCommit(fields));
  }

  getCommit(sha: string): CommitFields {
    return decodeCommit(this.require(sha, 'commit'));
  }

  /** Type of a stored object, or undefined. */
  typeOf(sha: string): ObjectType | undefined {
    return this.objects.get(sha)?.type;
  }

  /**
   * Apply path-addressed changes to a base tree and return the new root tree id, creating and pruning
   * subtrees as needed (a directory left empty by deletes disappears, as in git). Each changed tree is
   * the old body with the changed entries spliced in and out (tree-splice.ts): the cost follows the
   * entries changed, not the size of the directories they are in. Deleting a path that does not exist
   * throws `missing-path`; writing below an existing blob throws `path-conflict`.
   *
   * @example
   * const root = db.applyTreeChanges(base, [{ path: 'a/b.json', mode: '100644', sha: blob }, { path: 'c', mode: '100644', sha: null }]);
   */
  applyTreeChanges(baseTree: string | null, changes: readonly TreeChange[]): string {
    for (const c of changes) {
      if (!isTreePath(c.path)) throw new ObjectDbError('bad-path', `invalid tree path: ${JSON.stringify(c.path)}`);
    }
    // Where each change's next path segment starts: a level passes its changes down as indices, so no
    // per-change segment arrays are built (a create-tree request carries thousands of entries).
    const offset = new Int32Array(changes.length);
    const all = Array.from({ length: changes.length }, (_, i) => i);
    return this.applyAt(baseTree, changes, all, offset, '') ?? this.putTree([]);
  }

  private applyAt(
    treeSha: string | null,
    changes: readonly TreeChange[],
    list: readonly number[],
    offset: Int32Array,
    prefix: string,
  ): string | null {
    const level = treeSha === null ? EMPTY_LEVEL : this.level(treeSha);
    const { direct, nested } = this.splitLevel(level, changes, list, offset, prefix);
    for (const [name, sub] of nested) {
      const existing = direct.has(name) ? asEntry(direct.get(name)) : entryNamed(level, name);
      if (existing && !existing.tree) {
        throw new ObjectDbError('path-conflict', `${prefix}${name} is a file, not a directory`);
      }
      if (!existing && sub.every((i) => changes[i]?.sha === null)) {
        const first = changes[sub[0] as number] as TreeChange;
        throw new ObjectDbError(
          'missing-path',
          `path ${prefix}${name}/${first.path.slice(offset[sub[0] as number])} does not exist`,
        );
      }
      const child = this.applyAt(existing?.sha ?? null, changes, sub, offset, `${prefix}${name}/`);
      direct.set(name, child === null ? null : { path: name, mode: '040000', sha: child });
    }
    return this.spliceAndStore(level, direct);
  }

  /**
   * The changes of one level: those naming an entry of it (in order, the last for a name wins; a delete
   * must find the name, in the level or among earlier changes), and those below, grouped by subtree.
   */
  private splitLevel(
    level: TreeLevel,
    changes: readonly TreeChange[],
    list: readonly number[],
    offset: Int32Array,
    prefix: string,
  ): { direct: Map<string, TreeChange | null>; nested: Map<string, number[]> } {
    const direct = new Map<string, TreeChange | null>();
    const nested = new Map<string, number[]>();
    for (const i of list) {
      const c = changes[i] as TreeChange;
      const from = offset[i] as number;
      const slash = c.path.indexOf('/', from);
      if (slash >= 0) {
        const name = c.path.slice(from, slash);
        offset[i] = slash + 1;
        const sub = nested.get(name);
        if (sub) sub.push(i);
        else nested.set(name, [i]);
        continue;
      }
      const name = c.path.slice(from);
      if (c.sha !== null) direct.set(name, c);
      else if (direct.has(name) ? direct.get(name) !== null : entryNamed(level, name) !== undefined) {
        direct.set(name, null);
      } else throw new ObjectDbError('missing-path', `path ${prefix}${name} does not exist`);
    }
    return { direct, nested };
  }

  /** Splice the level's changes into it and store the new tree; null when it is left empty. */
  private spliceAndStore(level: TreeLevel, direct: ReadonlyMap<string, TreeChange | null>): string | null {
    const removed: number[] = [];
    const added: SplicedEntry[] = [];
    for (const [name, change] of direct) {
      const bytes = utf8(name);
      const asBlob = findEntry(level, bytes, false);
      const asTree = findEntry(level, bytes, true);
      if (asBlob >= 0) removed.push(asBlob);
      if (asTree >= 0) removed.push(asTree);
      if (change) added.push(encodeEntry(change.mode, bytes, change.sha as string));
    }
    if (levelSize(level) - removed.length + added.length === 0) return null;
    removed.sort((a, b) => a - b);
    added.sort(compareSpliced);
    const next = spliceLevel(level, removed, added);
    const sha = hashObject('tree', next.body);
    if (!this.objects.has(sha)) this.add(sha, 'tree', next.body);
    this.rememberLevel(sha, next);
    return sha;
  }

  /** A stored tree as a level ready for splicing (indexed once, then kept while the cache has room). */
  private level(sha: string): TreeLevel {
    let level = this.levels.get(sha);
    if (!level) {
      level = levelOf(this.require(sha, 'tree'));
      this.rememberLevel(sha, level);
    }
    return level;
  }

  private rememberLevel(sha: string, level: TreeLevel): void {
    const n = levelSize(level);
    if (this.levelEntries + n > ObjectDb.DECODED_TREE_LIMIT) {
      this.levels.clear();
      this.levelEntries = 0;
    }
    this.levels.set(sha, level);
    this.levelEntries += n;
  }

  /**
   * Every entry below a tree, depth first in git order, with full paths. Subtrees are included as
   * `type: 'tree'` entries when `includeTrees` (as `GET /git/trees?recursive=1` does).
   */
  flattenTree(treeSha: string, options: { includeTrees?: boolean } = {}): FlatEntry[] {
    const out: FlatEntry[] = [];
    const walk = (sha: string, prefix: string) => {
      for (const e of this.getTree(sha)) {
        const path = prefix + e.name;
        const type = typeOfMode(e.mode);
        if (type === 'tree') {
          if (options.includeTrees) out.push({ path, mode: e.mode, type, sha: e.sha });
          walk(e.sha, `${path}/`);
        } else {
          out.push({ path, mode: e.mode, type, sha: e.sha });
        }
      }
    };
    walk(treeSha, '');
    return out;
  }

  /** The entry at `path` below a tree, or undefined. */
  lookupPath(treeSha: string, path: string): TreeEntry | undefined {
    let current: TreeEntry | undefined = { mode: '040000', name: '', sha: treeSha };
    for (const seg of path.split('/')) {
      if (current?.mode !== '040000') return undefined;
      current = this.treeIndex(current.sha).get(seg);
    }
    return current;
  }

  /** True when `ancestor` is `descendant` or reachable from it through parents. */
  isAncestor(ancestor: string, descendant: string): boolean {
    const seen = new Set<string>();
    const stack = [descendant];
    while (stack.length > 0) {
      const sha = stack.pop() as string;
      if (sha === ancestor) return true;
      if (seen.has(sha) || !this.has(sha)) continue;
      seen.add(sha);
      appendAll(stack, this.getCommit(sha).parents);
    }
    return false;
  }

  /** Current value of a ref (full name such as `refs/docdb/documents`), or undefined. */
  readRef(name: string): string | undefined {
    return this.refs.get(name);
  }

  /**
   * Atomically set `name` to `next` (or delete it when `next` is null) if it currently equals
   * `expected` (`null` meaning "absent"). Returns false, changing nothing, on mismatch.
   */
  compareAndSwapRef(name: string, expected: string | null, next: string | null): boolean {
    const current = this.refs.get(name) ?? null;
    if (current !== expected) return false;
    if (current !== next) this.observer?.({ kind: 'ref', name, sha: next });
    if (next === null) this.refs.delete(name);
    else this.refs.set(name, next);
    return true;
  }

  /** Refs whose full name starts with `prefix`, sorted by name. */
  listRefs(prefix = ''): { ref: string; sha: string }[] {
    return [...this.refs.entries()]
      .filter(([ref]) => ref.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([ref, sha]) => ({ ref, sha }));
  }
}

/** A change of a level as the entry it leaves (none for a delete). */
function asEntry(change: TreeChange | null | undefined): { tree: boolean; sha: string } | undefined {
  return change ? { tree: change.mode === '040000', sha: change.sha as string } : undefined;
}
