/**
 * Keeping a section's full-text search exact in the SAME commit as its documents (issue 42): the
 * declarations hook (declarations.ts) calls {@link searchChanges} on the tip each attempt builds on, with
 * its first read round (`_docdb/search.json` and the written types' search manifests, read together with
 * the index and schema keys: no request of its own).
 *
 * Per declared type the write touches:
 * - a small write: the previous versions of its documents (the SAME read as the index work's: the hook
 *   hands both a memoizing `base`, so one read, not two), then `updateSearch` asking for the shards and
 *   table buckets it needs (`NeedFiles`), each round one batched `base.read`;
 * - a large write (more than {@link LARGE_SEARCH_WRITE} documents of the type), a declaration added or
 *   changed, a missing or damaged manifest, a damaged shard: `buildSearch` from the type's documents at the
 *   tip with the write applied — exact either way, never a silently wrong index;
 * - a rebuild asked for (`rebuild`, search-rebuild.ts): the same build, for a declared type nothing changed in;
 * - a dropped declaration: every file of the type deleted.
 */
import { InvalidConfig, InvalidResponse } from '../core/errors.js';
import { readManyFrom } from '../core/read-many.js';
import type { Change, DeriveBase, RefStore } from '../core/refstore.js';
import type { VersionId } from '../core/version.js';
import { decodeEnvelope } from './envelope.js';
import { parseKey } from './identity.js';
import { dataAfter, type IndexedOp } from './index-rebuild.js';
import type { FirstRead } from './index-write.js';
import {
  buildSearch,
  NeedFiles,
  parseSearchDeclaration,
  SEARCH_DECLARATION_KEY,
  type SearchChange,
  type SearchDeclaration,
  type SearchDoc,
  type SearchOptions,
  type SearchRead,
  searchDeclarationChanges,
  searchFilesOf,
  searchManifestPath,
  serializeSearchDeclaration,
  type TypeSearch,
  updateSearch,
  validateSearchDeclaration,
} from './search/index.js';
import { rebuildTargets, type SearchTypeName } from './search-rebuild.js';

/** Above this many documents of one type in a write, rebuild its search from the documents. */
export const LARGE_SEARCH_WRITE = 256;

/** How DocumentStore keeps search: shard bounds, and when a write of a type rebuilds it. */
export interface DocumentSearchOptions extends SearchOptions {
  /** Above this many documents of one type in a write, build the type from its documents (default 256). */
  largeTypeWrite?: number;
}

/** One write's search work. */
export interface SearchWrite {
  store: RefStore;
  ops: readonly IndexedOp[];
  /** Search declared in the same commit: per (namespace, type), `fields: []` drops it. */
  declare?: readonly TypeSearch[] | undefined;
  /** Declared types built again from their documents though nothing changed (search-rebuild.ts). */
  rebuild?: readonly SearchTypeName[] | undefined;
  options?: DocumentSearchOptions | undefined;
}

/** Search files after a write: path → bytes (written) or null (deleted). */
type Files = Map<string, Uint8Array | null>;

const typeKey = (t: { namespace: string; type: string }) => `${t.namespace}/${t.type}`;

/** Rounds of `NeedFiles` one step may ask for before the answer is taken as damaged. */
const MAX_ROUNDS = 8;

/**
 * The search declaration after `declare` is applied to `before` (upsert per type; no fields = drop), validated.
 *
 * @example
 * applySearchDeclare({ version: 1, search: [] }, [{ namespace: 'g', type: 'repo', fields: ['data.title'] }]);
 */
export function applySearchDeclare(before: SearchDeclaration, declare: readonly TypeSearch[]): SearchDeclaration {
  const byType = new Map(before.search.map((t) => [typeKey(t), t]));
  for (const t of declare) {
    byType.delete(typeKey(t));
    if (t.fields.length > 0) byType.set(typeKey(t), { namespace: t.namespace, type: t.type, fields: [...t.fields] });
  }
  return validateSearchDeclaration({ version: 1, search: [...byType.values()] });
}

/**
 * Search a write declares, checked before any I/O (`fields: []` drops, so it is not checked as a declaration):
 * `InvalidConfig` naming `search[i]…`.
 *
 * @example
 * checkSearch([{ namespace: 'github', type: 'repo', fields: ['data.title'] }]); // throws InvalidConfig when bad
 */
export function checkSearch(search: unknown): void {
  if (!Array.isArray(search)) {
    throw new InvalidConfig('search', 'search takes an array of { namespace, type, fields }', {
      allowed: '[{ namespace, type, fields: ["data.title", …] }]',
    });
  }
  const declared = search.filter((t) => (t as TypeSearch | null)?.fields?.length !== 0);
  validateSearchDeclaration({ version: 1, search: declared });
}

/**
 * The search changes of one write on the tip `base`, given the hook's first read round.
 *
 * @example
 * const first = await base.read(declarationsFirstReads(types));
 * const changes = await searchChanges({ store, ops }, base, first);
 */
export async function searchChanges(w: SearchWrite, base: DeriveBase, first: FirstRead): Promise<Change[]> {
  const stored = first.get(SEARCH_DECLARATION_KEY)?.value;
  const before = parseSearchDeclaration(stored);
  const after = w.declare ? applySearchDeclare(before, w.declare) : before;
  const changed = searchDeclarationChanges(before, after);
  const files: Files = new Map();
  const manifest = (t: TypeSearch) => manifestAt(base, first, t);
  for (const t of changed.drop)
    for (const p of await oldFiles(w.store, base.version, t, await manifest(t))) files.set(p, null);
  const byType = groupByType(w.ops);
  const rebuilt = new Set([...changed.build, ...rebuildTargets(after, w.rebuild ?? [])].map(typeKey));
  for (const t of after.search) {
    const mine = byType.get(typeKey(t)) ?? [];
    if (mine.length === 0 && !rebuilt.has(typeKey(t))) continue;
    const bytes = await manifest(t);
    for (const [p, b] of await typeFiles(w, base, t, mine, bytes, rebuilt.has(typeKey(t)))) files.set(p, b);
  }
  const declaration = serializeSearchDeclaration(after);
  if (w.declare && !sameBytes(stored, declaration)) {
    files.set(SEARCH_DECLARATION_KEY, after.search.length === 0 ? null : declaration);
  }
  return [...files].map(([key, value]) => (value === null ? { op: 'delete', key } : { op: 'put', key, value }));
}

/** A type's manifest at the tip: from the first read round, else read now (a dropped type not written). */
async function manifestAt(base: DeriveBase, first: FirstRead, t: TypeSearch): Promise<Uint8Array | undefined> {
  const path = searchManifestPath(t.namespace, t.type);
  if (first.has(path)) return first.get(path)?.value;
  return (await base.read([path])).get(path)?.value;
}

/**
 * Every file of `t`'s search at the tip, to delete: those its manifest lists — or, when the manifest is
 * damaged (it cannot be trusted to list them), whatever the section holds under the type's folder.
 */
async function oldFiles(
  store: RefStore,
  version: VersionId | null,
  t: TypeSearch,
  manifest: Uint8Array | undefined,
): Promise<string[]> {
  if (!manifest || version === null) return [];
  try {
    return searchFilesOf(t, manifest);
  } catch (e) {
    if (!(e instanceof InvalidResponse)) throw e;
    const folder = searchManifestPath(t.namespace, t.type).replace(/manifest\.json$/, '');
    return (await store.list({ prefix: folder, version })).entries.map((x) => x.key);
  }
}

/** The search files of `t` after the write: incremental, or built from the documents. */
async function typeFiles(
  w: SearchWrite,
  base: DeriveBase,
  t: TypeSearch,
  mine: readonly IndexedOp[],
  manifest: Uint8Array | undefined,
  rebuilt: boolean,
): Promise<Files> {
  const { largeTypeWrite = LARGE_SEARCH_WRITE, ...o } = w.options ?? {};
  const build = async () => {
    const old = await oldFiles(w.store, base.version, t, manifest);
    return buildFromDocuments(w.store, base.version, t, mine, old, o);
  };
  if (rebuilt || !manifest || mine.length > largeTypeWrite) return build();
  try {
    return await incremental(base, t, mine, o);
  } catch (e) {
    // A damaged search (untrusted bytes read back) is built again from the documents: exact, if slower.
    if (e instanceof InvalidResponse) return build();
    throw e;
  }
}

/** A few documents of `t` changed: their previous versions, then `updateSearch` on the files it names. */
async function incremental(
  base: DeriveBase,
  t: TypeSearch,
  mine: readonly IndexedOp[],
  o: SearchOptions,
): Promise<Files> {
  const previous = await base.read(mine.map((op) => op.key));
  const changes: SearchChange[] = [];
  for (const op of mine) {
    const got = previous.get(op.key);
    const sha = op.after ? op.after.blobSha || base.written(op.key) : undefined;
    if (got && got.blobSha === sha) continue;
    const change: SearchChange = { id: op.id };
    if (got && base.version) change.before = decodeEnvelope(got.value, base.version).data;
    if (op.after) change.after = searchData(op, t);
    if ('before' in change || 'after' in change) changes.push(change);
  }
  if (changes.length === 0) return new Map();
  const have = new Map<string, Uint8Array | null>();
  const u = await withFiles(base, have, (read) => updateSearch(t, read, changes, o));
  const out: Files = new Map();
  for (const p of u.deletes) out.set(p, null);
  for (const [p, b] of u.writes) out.set(p, b);
  return out;
}

/**
 * Run a pure step that may throw `NeedFiles`: fetch what it names (one batched read per round, at the
 * write's tip) and run it again, until it answers.
 */
async function withFiles<R>(
  base: DeriveBase,
  have: Map<string, Uint8Array | null>,
  step: (read: SearchRead) => R,
): Promise<R> {
  const read: SearchRead = (p) => (have.has(p) ? have.get(p) : undefined);
  for (let round = 0; ; round++) {
    try {
      return step(read);
    } catch (e) {
      if (!(e instanceof NeedFiles) || round >= MAX_ROUNDS) throw e;
      const todo = e.paths.filter((p) => !have.has(p));
      if (todo.length === 0) throw e;
      const got = await base.read(todo);
      for (const p of todo) have.set(p, got.get(p)?.value ?? null);
    }
  }
}

/** The data of an op's new state; a commit in parts that kept only index values cannot be searched. */
function searchData(op: IndexedOp, t: TypeSearch): unknown {
  const d = dataAfter(op);
  if (d) return d.data;
  throw new InvalidConfig(
    'search',
    `the search declaration of ${t.namespace}/${t.type} changed while this write was under way (now: ${t.fields.join(', ')}); nothing was written — run the write again`,
    { namespace: t.namespace, type: t.type },
  );
}

/**
 * Build `t` from every document of the type at `version` (read in bulk) with the write's ops applied;
 * `old` files the build does not rewrite are deleted.
 *
 * @example
 * const files = await buildFromDocuments(store, version, t, ops, oldFiles, {});
 */
export async function buildFromDocuments(
  store: RefStore,
  version: VersionId | null,
  t: TypeSearch,
  ops: readonly IndexedOp[],
  old: readonly string[],
  o: SearchOptions,
): Promise<Files> {
  const docs = new Map<string, SearchDoc>();
  if (version !== null) {
    const written = new Set(ops.map((op) => op.key));
    const listed = await store.list({ prefix: `${t.namespace}/${t.type}/`, version });
    const keys = listed.entries.map((e) => e.key).filter((k) => !written.has(k) && parseKey(k)?.doc_type === t.type);
    for await (const item of readManyFrom(store, keys, { version })) {
      if (!item.value) continue;
      const env = decodeEnvelope(item.value, version);
      docs.set(env.id, { id: env.id, data: env.data });
    }
  }
  for (const op of ops) {
    if (op.after) docs.set(op.id, { id: op.id, data: searchData(op, t) });
    else docs.delete(op.id);
  }
  const out: Files = new Map();
  for (const p of old) out.set(p, null);
  for (const [p, b] of buildSearch(t, [...docs.values()], o)) out.set(p, b);
  return out;
}

/** The write's documents grouped by `namespace/type`. */
function groupByType(ops: readonly IndexedOp[]): Map<string, IndexedOp[]> {
  const out = new Map<string, IndexedOp[]>();
  for (const op of ops) {
    const list = out.get(typeKey(op));
    if (list) list.push(op);
    else out.set(typeKey(op), [op]);
  }
  return out;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}
