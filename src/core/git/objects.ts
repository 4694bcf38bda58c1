/**
 * The git object model: byte-exact encoding of blobs, trees and commits and their object ids.
 * Pure functions, no I/O. Reference: https://git-scm.com/book/en/v2/Git-Internals-Git-Objects
 */
import { concatBytes, fromHex, fromUtf8, toHex, utf8 } from '../bytes.js';
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

/** The bytes a tree entry sorts by: its name, with `/` appended for a subtree. */
function sortKey(e: TreeEntry): Uint8Array {
  return utf8(isTreeMode(e.mode) ? `${e.name}/` : e.name);
}

function compareBytes(an: Uint8Array, bn: Uint8Array): number {
  const len = Math.min(an.length, bn.length);
  for (let i = 0; i < len; i++) {
    const d = (an[i] as number) - (bn[i] as number);
    if (d !== 0) return d;
  }
  return an.length - bn.length;
}

/**
 * Git's tree order: entries sorted by name bytes, where a subtree sorts as if its name ended in `/`.
 * (Compares UTF-8 bytes, not UTF-16 code units.)
 */
export function compareTreeEntries(a: TreeEntry, b: TreeEntry): number {
  return compareBytes(sortKey(a), sortKey(b));
}

/** Encode a tree body (entries are sorted here; duplicate names are an error). */
export function encodeTree(entries: readonly TreeEntry[]): Uint8Array {
  // Each name is encoded once, not once per comparison (a 10,000-key write sorts thousands of names).
  const sorted = entries
    .map((e) => ({ e, key: sortKey(e) }))
    .sort((a, b) => compareBytes(a.key, b.key))
    .map((x) => x.e);
  const parts: Uint8Array[] = [];
  // A Set, not a neighbour check: a blob `a` and a subtree `a` are not adjacent in tree order (`a`, `a.b`, `a/`).
  const names = new Set<string>();
  for (const e of sorted) {
    if (names.has(e.name)) throw new Error(`duplicate tree entry name: ${e.name}`);
    names.add(e.name);
    // git writes the tree mode without its leading zero.
    const mode = isTreeMode(e.mode) ? '40000' : e.mode;
    parts.push(utf8(`${mode} ${e.name}\0`), fromHex(e.sha));
  }
  return concatBytes(parts);
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
