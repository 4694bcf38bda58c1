/**
 * Changing a stored git tree at a cost in proportion to the entries changed, not to the size of the
 * tree: a tree object is its entries in git order (`<mode> <name>\0<20-byte id>` each), so a new tree is
 * the old body with a few entries cut out and a few spliced in. The unchanged runs are copied as bytes
 * (one native copy each), and the entries to change are found by binary search on the old body — no
 * decoding, sorting or re-encoding of the entries that stay. Only hashing the new body still reads every
 * byte, which SHA-1 itself requires (natively, ≈ 1 GB/s). Used by ObjectDb (the emulator's create-tree,
 * MemoryRefStore). https://git-scm.com/book/en/v2/Git-Internals-Git-Objects#_tree_objects
 */
import { hexInto, utf8 } from '../bytes.js';

/** A tree body and where each of its entries starts (`starts[n]` is the body's length). */
export interface TreeLevel {
  body: Uint8Array;
  starts: Int32Array;
}

/** An entry to splice in: its name's bytes, whether it is a subtree (git sorts those as `name/`), its bytes. */
export interface SplicedEntry {
  name: Uint8Array;
  tree: boolean;
  bytes: Uint8Array;
}

const SPACE = 0x20;
const SLASH = 0x2f;
const DOT = 0x2e;

/** The level of the empty tree. */
export const EMPTY_LEVEL: TreeLevel = { body: new Uint8Array(0), starts: new Int32Array([0]) };

/** Number of entries of a level. */
export function levelSize(level: TreeLevel): number {
  return level.starts.length - 1;
}

/**
 * Index a tree body (one scan for the NUL that ends each name).
 *
 * @example
 * const level = levelOf(db.get(treeSha).body);
 */
export function levelOf(body: Uint8Array): TreeLevel {
  const starts: number[] = [];
  for (let at = 0; at < body.length; ) {
    starts.push(at);
    const nul = body.indexOf(0, at);
    if (nul < 0 || nul + 21 > body.length) throw new Error('malformed tree object');
    at = nul + 21;
  }
  starts.push(body.length);
  return { body, starts: Int32Array.from(starts) };
}

/** Where the name of the entry starting at `s` begins (modes are 5 or 6 ASCII digits). */
function nameStart(body: Uint8Array, s: number): number {
  return body[s + 5] === SPACE ? s + 6 : s + 7;
}

/**
 * Git's order (base_name_compare) of entry `i` of `level` against `name`: the bytes of the common
 * length first, then a subtree compares as if its name ended in `/`.
 */
function compareAt(level: TreeLevel, i: number, name: Uint8Array, tree: boolean): number {
  const body = level.body;
  const s = level.starts[i] as number;
  const from = nameStart(body, s);
  const end = body.indexOf(0, from);
  const len = end - from;
  const n = len < name.length ? len : name.length;
  for (let k = 0; k < n; k++) {
    const d = (body[from + k] as number) - (name[k] as number);
    if (d !== 0) return d;
  }
  const a = len > n ? (body[from + n] as number) : body[s] === 0x34 /* '4': mode 40000 */ ? SLASH : 0;
  const b = name.length > n ? (name[n] as number) : tree ? SLASH : 0;
  return a - b;
}

/** The first entry of `level` not before (`name`, `tree`) in git order. */
export function lowerBound(level: TreeLevel, name: Uint8Array, tree: boolean): number {
  let lo = 0;
  let hi = levelSize(level);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareAt(level, mid, name, tree) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the entry named `name` that is (`tree`) or is not a subtree, or -1. */
export function findEntry(level: TreeLevel, name: Uint8Array, tree: boolean): number {
  const i = lowerBound(level, name, tree);
  return i < levelSize(level) && compareAt(level, i, name, tree) === 0 ? i : -1;
}

/** The object id (hex) of entry `i`. */
export function entrySha(level: TreeLevel, i: number): string {
  const end = level.starts[i + 1] as number;
  let hex = '';
  for (let k = end - 20; k < end; k++) hex += ((level.body[k] as number) + 0x100).toString(16).slice(1);
  return hex;
}

/**
 * The entry named `name` in `level`, a subtree or not, or undefined.
 *
 * @example
 * entryNamed(level, 'docs'); // { tree: true, sha: '…' }
 */
export function entryNamed(level: TreeLevel, name: string): { tree: boolean; sha: string } | undefined {
  const bytes = utf8(name);
  const tree = findEntry(level, bytes, true);
  if (tree >= 0) return { tree: true, sha: entrySha(level, tree) };
  const blob = findEntry(level, bytes, false);
  return blob >= 0 ? { tree: false, sha: entrySha(level, blob) } : undefined;
}

/**
 * One entry's bytes, `<mode> <name>\0<20-byte id>`, ready to splice in (a subtree's mode is written
 * without its leading zero, as git does).
 *
 * @example
 * const e = encodeEntry('100644', utf8('a.json'), blobSha);
 */
export function encodeEntry(mode: string, name: Uint8Array, sha: string): SplicedEntry {
  const m = mode === '040000' ? '40000' : mode;
  const bytes = new Uint8Array(m.length + 1 + name.length + 1 + 20);
  for (let i = 0; i < m.length; i++) bytes[i] = m.charCodeAt(i);
  bytes[m.length] = SPACE;
  bytes.set(name, m.length + 1);
  hexInto(sha, bytes, m.length + 2 + name.length);
  return { name, tree: m === '40000', bytes };
}

/**
 * True when `path` is non-empty with no empty, `.` or `..` segment (scanned, not split: no array per path).
 *
 * @example
 * isTreePath('a/b.json'); // true
 * isTreePath('a//b');     // false
 */
export function isTreePath(path: string): boolean {
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && path.charCodeAt(i) !== SLASH) continue;
    const len = i - start;
    if (len === 0) return false;
    if (len <= 2 && path.charCodeAt(start) === DOT && (len === 1 || path.charCodeAt(start + 1) === DOT)) return false;
    start = i + 1;
  }
  return true;
}

/** Compare two entries to splice in, in git order. */
export function compareSpliced(a: SplicedEntry, b: SplicedEntry): number {
  const n = a.name.length < b.name.length ? a.name.length : b.name.length;
  for (let k = 0; k < n; k++) {
    const d = (a.name[k] as number) - (b.name[k] as number);
    if (d !== 0) return d;
  }
  const ca = a.name.length > n ? (a.name[n] as number) : a.tree ? SLASH : 0;
  const cb = b.name.length > n ? (b.name[n] as number) : b.tree ? SLASH : 0;
  return ca - cb;
}

/**
 * The level with entries `removed` (indices into `old`, ascending) cut out and `added` (in git order,
 * none equal to an entry that stays) spliced in.
 *
 * @example
 * const next = spliceLevel(old, [findEntry(old, name, false)], [{ name, tree: false, bytes }]);
 */
export function spliceLevel(old: TreeLevel, removed: readonly number[], added: readonly SplicedEntry[]): TreeLevel {
  const n = levelSize(old);
  const at = added.map((e) => lowerBound(old, e.name, e.tree));
  let size = old.body.length;
  for (const i of removed) size -= (old.starts[i + 1] as number) - (old.starts[i] as number);
  for (const e of added) size += e.bytes.length;
  const body = new Uint8Array(size);
  const starts = new Int32Array(n - removed.length + added.length + 1);
  let o = 0; // next byte of the new body
  let m = 0; // next entry of the new level
  const copy = (from: number, to: number) => {
    if (from >= to) return;
    const a = old.starts[from] as number;
    body.set(old.body.subarray(a, old.starts[to] as number), o);
    for (let k = from; k < to; k++) starts[m++] = (old.starts[k] as number) - a + o;
    o += (old.starts[to] as number) - a;
  };
  let cursor = 0;
  let r = 0;
  let j = 0;
  while (cursor < n || j < added.length) {
    const nextAdd = j < added.length ? (at[j] as number) : n;
    const nextCut = r < removed.length ? (removed[r] as number) : n;
    const next = Math.min(nextAdd, nextCut);
    copy(cursor, next);
    cursor = next;
    while (j < added.length && at[j] === next) {
      const e = added[j++] as SplicedEntry;
      starts[m++] = o;
      body.set(e.bytes, o);
      o += e.bytes.length;
    }
    if (r < removed.length && removed[r] === next) {
      r++;
      cursor = next + 1;
    } else if (next === n) break;
  }
  starts[m] = o;
  return { body, starts };
}
