/**
 * The git object model: byte-exact encoding of blobs, trees and commits and their object ids.
 * Pure functions, no I/O. Reference: https://git-scm.com/book/en/v2/Git-Internals-Git-Objects
 */
import { concatBytes, fromUtf8, hexInto, toHex, utf8 } from '../bytes.js';
import { sha1HexAsync, sha1HexParts, sha1Implementation } from './sha1.js';

export type ObjectType = 'blob' | 'tree' | 'commit';

/** Tree entry modes git writes. `040000` is how the REST API spells a subtree (git itself writes `40000`). */
export type TreeMode = '100644' | '100755' | '040000' | '120000' | '160000';

export const TREE_MODES: readonly TreeMode[] = ['100644', '100755', '040000', '120000', '160000'];

/** One entry of one tree object: `name` is a single path segment. */
export interface TreeEntry {
  mode: TreeMode;
  name: string;
  sha: string;
}

/** Author or committer line. `timestamp` is seconds since the epoch; `timezone` like `+0000`, `-0530`. */
export interface Signature {
  name: string;
  email: string;
  timestamp: number;
  timezone: string;
}

export interface CommitFields {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

const SHA_RE = /^[0-9a-f]{40}$/;

/** True when `s` is a 40-character lowercase hex object id. */
export function isSha(s: unknown): s is string {
  return typeof s === 'string' && SHA_RE.test(s);
}

/** `<type> <size>\0<body>`: the bytes whose SHA-1 is the object id. */
export function encodeObject(type: ObjectType, body: Uint8Array): Uint8Array {
  return concatBytes([utf8(`${type} ${body.length}\0`), body]);
}

/**
 * Object id of a body of the given type, as `git hash-object -t <type>` computes it.
 *
 * @example
 * hashObject('blob', utf8('hello\n')) // 'ce013625030ba8dba906f756967f9e9ca394464a'
 */
export function hashObject(type: ObjectType, body: Uint8Array): string {
  // Hash header and body as two parts: no copy of a (possibly large) body.
  return sha1HexParts([utf8(`${type} ${body.length}\0`), body]);
}

/** Object id of a blob with these bytes. */
export function blobSha(bytes: Uint8Array): string {
  return hashObject('blob', bytes);
}

/**
 * Object id of a blob, asynchronously: WebCrypto in browsers (where the synchronous path would be the
 * portable JavaScript SHA-1), `node:crypto` in Node. For paths that are async anyway (reading a blob).
 *
 * @example
 * await blobShaAsync(utf8('hello\n')) // 'ce013625030ba8dba906f756967f9e9ca394464a'
 */
export async function blobShaAsync(bytes: Uint8Array): Promise<string> {
  if (sha1Implementation() === 'node') return blobSha(bytes);
  return sha1HexAsync(encodeObject('blob', bytes));
}

function isTreeMode(mode: string): boolean {
  return mode === '040000' || mode === '40000';
}

/**
 * A UTF-16 code unit moved so that comparing units orders strings by code point — which is UTF-8 byte
 * order, git's order — rather than by unit: surrogates (pairs above U+FFFF) sort after U+E000–U+FFFF.
 */
function codePointOrderUnit(c: number): number {
  return c < 0xd800 ? c : c >= 0xe000 ? c - 0x800 : c + 0x2000;
}

/** Git's order of two entry names, a subtree's compared as if it ended in `/` (no bytes made). */
function compareNames(a: string, aTree: boolean, b: string, bTree: boolean): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrderUnit(x) - codePointOrderUnit(y);
  }
  const x = a.length > n ? codePointOrderUnit(a.charCodeAt(n)) : aTree ? 0x2f : -1;
  const y = b.length > n ? codePointOrderUnit(b.charCodeAt(n)) : bTree ? 0x2f : -1;
  return x - y;
}

/**
 * Git's tree order: entries sorted by name bytes, where a subtree sorts as if its name ended in `/`.
 * (Compares UTF-8 bytes, not UTF-16 code units.)
 */
export function compareTreeEntries(a: TreeEntry, b: TreeEntry): number {
  return compareNames(a.name, isTreeMode(a.mode), b.name, isTreeMode(b.mode));
}

const treeEncoder = new TextEncoder();

/** Encode a tree body (entries are sorted here; duplicate names are an error). */
export function encodeTree(entries: readonly TreeEntry[]): Uint8Array {
  const sorted = [...entries].sort(compareTreeEntries);
  // A Set, not a neighbour check: a blob `a` and a subtree `a` are not adjacent in tree order (`a`, `a.b`, `a/`).
  const names = new Set<string>();
  let size = 0;
  for (const e of sorted) {
    if (names.has(e.name)) throw new Error(`duplicate tree entry name: ${e.name}`);
    names.add(e.name);
    size += 7 + e.name.length * 3 + 1 + 20; // at most: mode, space, name in UTF-8, NUL, id
  }
  // One buffer for the whole body: no array per entry (a 100,000-key write encodes thousands of levels).
  const out = new Uint8Array(size);
  let at = 0;
  for (const e of sorted) {
    // git writes the tree mode without its leading zero.
    const mode = isTreeMode(e.mode) ? '40000' : e.mode;
    for (let i = 0; i < mode.length; i++) out[at++] = mode.charCodeAt(i);
    out[at++] = 0x20;
    at += treeEncoder.encodeInto(e.name, out.subarray(at)).written;
    out[at++] = 0;
    hexInto(e.sha, out, at);
    at += 20;
  }
  return out.slice(0, at);
}

/** Decode a tree body into entries (mode normalised to the API's `040000` spelling for subtrees). */
export function decodeTree(body: Uint8Array): TreeEntry[] {
  const out: TreeEntry[] = [];
  let i = 0;
  while (i < body.length) {
    const sp = body.indexOf(0x20, i);
    const nul = body.indexOf(0x00, sp);
    if (sp < 0 || nul < 0 || nul + 21 > body.length) throw new Error('malformed tree object');
    const rawMode = fromUtf8(body.subarray(i, sp));
    const mode = (rawMode === '40000' ? '040000' : rawMode) as TreeMode;
    const name = fromUtf8(body.subarray(sp + 1, nul));
    const sha = toHex(body.subarray(nul + 1, nul + 21));
    out.push({ mode, name, sha });
    i = nul + 21;
  }
  return out;
}

function formatSignature(s: Signature): string {
  return `${s.name} <${s.email}> ${Math.floor(s.timestamp)} ${s.timezone}`;
}

// `s`: names may contain U+2028/U+2029 or CR, which `.` would not match otherwise.
const SIG_RE = /^(.*) <(.*)> (-?\d+) ([+-]\d{4})$/s;

function parseSignature(line: string): Signature {
  const m = SIG_RE.exec(line);
  if (!m) throw new Error(`malformed signature: ${line}`);
  return { name: m[1] as string, email: m[2] as string, timestamp: Number(m[3]), timezone: m[4] as string };
}

/** Encode a commit body exactly as `git commit-tree` does (message kept byte for byte). */
export function encodeCommit(c: CommitFields): Uint8Array {
  let head = `tree ${c.tree}\n`;
  for (const p of c.parents) head += `parent ${p}\n`;
  head += `author ${formatSignature(c.author)}\n`;
  head += `committer ${formatSignature(c.committer)}\n`;
  return utf8(`${head}\n${c.message}`);
}

/** Decode a commit body (unknown headers such as `gpgsig` are skipped). */
export function decodeCommit(body: Uint8Array): CommitFields {
  const text = fromUtf8(body);
  const split = text.indexOf('\n\n');
  const headerText = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree: string | undefined;
  const parents: string[] = [];
  let author: Signature | undefined;
  let committer: Signature | undefined;
  for (const line of headerText.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header (gpgsig)
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseSignature(value);
    else if (key === 'committer') committer = parseSignature(value);
  }
  if (!tree || !author || !committer) throw new Error('malformed commit object');
  return { tree, parents, author, committer, message };
}

/** `+0000`-style offset for minutes east of UTC. */
export function formatTimezone(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** ISO-8601 date of a signature, in its own timezone as GitHub shows it (`2024-01-01T10:00:00Z` for +0000). */
export function signatureDate(s: Signature): string {
  const d = new Date(s.timestamp * 1000);
  if (s.timezone === '+0000' || s.timezone === '-0000') return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const sign = s.timezone[0] === '-' ? -1 : 1;
  const mins = sign * (Number(s.timezone.slice(1, 3)) * 60 + Number(s.timezone.slice(3, 5)));
  const local = new Date(d.getTime() + mins * 60_000).toISOString().replace(/\.\d{3}Z$/, '');
  return `${local}${s.timezone.slice(0, 3)}:${s.timezone.slice(3)}`;
}

/** Parse an ISO-8601 date (as the REST API accepts for author/committer `date`) into a Signature time. */
export function parseSignatureDate(iso: string): { timestamp: number; timezone: string } {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`invalid date: ${iso}`);
  const m = /([+-])(\d{2}):?(\d{2})$/.exec(iso);
  const timezone = m ? `${m[1]}${m[2]}${m[3]}` : '+0000';
  return { timestamp: Math.floor(ms / 1000), timezone };
}
