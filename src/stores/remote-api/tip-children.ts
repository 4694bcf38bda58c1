/**
 * The `childFiles` hint of a bulk read at the tip (refstore.ts `ReadManyOptions.childFiles`): the files `names`
 * of every directory directly under `under`, read in the SAME GraphQL query as the tip and the keys (tip-files.ts),
 * without knowing the directories' names — a search without `type` then has every type's manifest of the
 * namespace with its first round instead of a round of its own. GraphQL cannot pick entries by name, so the
 * query walks two tree levels (`file(path: under) { object { ... on Tree { entries { object { ... on Tree {
 * entries { … Blob text } } } } } } }`) and only `<under>/<dir>/<name>` blobs of the named files are kept (the
 * others' text comes too: naming every file the caller reads next keeps those bytes from being wasted).
 * Untrusted like every GraphQL read: a blob is kept only when its text hashes to its oid (graphql.ts
 * `objectAt`); binary, truncated or mismatched ones are left out (the caller reads them as usual). Bounded: more
 * than {@link CHILD_DIRS_MAX} directories or {@link CHILD_BYTES_MAX} bytes of kept text keeps nothing (the
 * caller's usual round reads them).
 */
import { isSha } from '../../core/git/objects.js';
import { objectAt } from './graphql.js';
import type { BlobAt } from './graphql-blobs.js';
import { isObject } from './shapes.js';

/** Most directories under `under` whose file is kept (a search namespace's types: 100 is far beyond use). */
export const CHILD_DIRS_MAX = 100;

/** Most bytes of kept files: beyond, the hint keeps nothing (the usual round reads them, batched). */
export const CHILD_BYTES_MAX = 4 * 1024 * 1024;

/** The hint: the files `names` of each directory directly under the directory `under`. */
export interface ChildFiles {
  under: string;
  names: readonly string[];
}

/**
 * The GraphQL field (alias `d`, variable `$d`) reading two tree levels under `under`, for a `Commit` selection.
 *
 * @example
 * childFilesField(); // 'd: file(path: $d) { … }' — with variables { d: '_docdb/search/github' }
 */
export function childFilesField(): string {
  const files = `object { __typename ... on Tree { entries { name mode oid ${ENTRY_OBJECT} } } }`;
  return `d: file(path: $d) { mode object { __typename ... on Tree { entries { name mode ${files} } } } }`;
}

/**
 * The exact files `<under>/<dir>/<name>` of the `d` answer, by path; empty when the directory is absent, not a
 * tree, malformed, or over the bounds.
 *
 * @example
 * const kept = await childFilesOf(commit.d, { under: '_docdb/search/github', names: ['manifest.json'] });
 * kept.get('_docdb/search/github/repo/manifest.json'); // { sha, bytes }
 */
export async function childFilesOf(d: unknown, hint: ChildFiles): Promise<Map<string, BlobAt>> {
  const kept = new Map<string, BlobAt>();
  const dirs = treeEntries(isObject(d) ? d.object : undefined);
  if (dirs === undefined || dirs.length > CHILD_DIRS_MAX) return kept;
  let bytes = 0;
  for (const dir of dirs) {
    if (!isObject(dir) || typeof dir.name !== 'string' || dir.mode !== 0o40000) continue;
    for (const file of treeEntries(dir.object) ?? []) {
      if (!isObject(file) || typeof file.name !== 'string' || !hint.names.includes(file.name)) continue;
      const got = await exactBlob(file);
      if (got === undefined) continue;
      bytes += got.bytes.length;
      if (bytes > CHILD_BYTES_MAX) return new Map();
      kept.set(`${hint.under}/${dir.name}/${file.name}`, got);
    }
  }
  return kept;
}

function treeEntries(o: unknown): unknown[] | undefined {
  if (!isObject(o) || o.__typename !== 'Tree' || !Array.isArray(o.entries)) return undefined;
  return o.entries;
}

/** A regular file's blob whose text hashes to its oid, else undefined. */
async function exactBlob(e: unknown): Promise<{ sha: string; bytes: Uint8Array } | undefined> {
  const got = await regularFileBlob(e);
  return got?.bytes ? { sha: got.sha, bytes: got.bytes } : undefined;
}

/** The selection of a tree entry's object that {@link regularFileBlob} reads. */
export const ENTRY_OBJECT = 'object { __typename oid ... on Blob { text isBinary isTruncated } }';

/** Git's modes of a regular file (GraphQL gives `mode` as a number). */
const FILE_MODES = new Set([0o100644, 0o100755]);

/**
 * A tree entry (`{ mode oid object }`) that is a regular file: its blob, with the bytes when its text hashes to
 * the oid (the object's oid agreeing with the entry's); undefined for anything else (a symlink, damage).
 *
 * @example
 * await regularFileBlob(entry); // { sha, bytes? } | undefined
 */
export async function regularFileBlob(e: unknown): Promise<{ sha: string; bytes?: Uint8Array } | undefined> {
  if (!isObject(e) || !isSha(e.oid) || typeof e.mode !== 'number' || !FILE_MODES.has(e.mode)) return undefined;
  const o = await objectAt(e.object);
  if (o?.type !== 'Blob' || o.oid !== e.oid) return undefined;
  return o.bytes ? { sha: o.oid, bytes: o.bytes } : { sha: o.oid };
}
