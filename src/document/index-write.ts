/**
 * Keeping a section's indexes exact in the SAME commit as its documents (issue 28, item 2): every
 * DocumentStore write hands the store a derive hook (`CommitOptions.derive`, src/core/derive.ts) built
 * here. The store calls it on the tip each attempt builds on — again after a lost race — so the index
 * files are always computed on the tree they land in, never rebased.
 *
 * Reads, in rounds (each one batched by the store): the declaration and the written types' manifests;
 * then the written documents' previous versions (a small write); then the index parts their rows live
 * in. A large write of a type rebuilds it from one run of its own covering rows instead; a declaration
 * added or changed in this write, a missing manifest, or a damaged index (a part that does not parse, a
 * row that is not where the previous document says) is built from the documents themselves — exact
 * either way, never a silently wrong index. A section without a declaration costs one read of
 * `_docdb/` (free when the store already knows the tree has none).
 */
import { InvalidConfig, InvalidResponse } from '../core/errors.js';
import type { Change, DeriveBase, DeriveChanges, RefStore } from '../core/refstore.js';
import { decodeEnvelope } from './envelope.js';
import { indexFirstReads, writtenTypes } from './first-reads.js';
import {
  buildFromDocuments,
  buildFromRun,
  countsFromRun,
  dataAfter,
  type IndexedOp,
  type IndexFiles,
  manifestOf,
  oldPaths,
} from './index-rebuild.js';
import { countsPath } from './indexes/counts.js';
import {
  DECLARATION_KEY,
  declarationChanges,
  FORMAT_VERSION,
  type IndexDeclaration,
  type IndexOptions,
  type Manifest,
  parseDeclaration,
  partsToRead,
  serializeDeclaration,
  type TypeIndex,
  updateIndex,
  validateDeclaration,
} from './indexes/index.js';
import { manifestPath } from './indexes/paths.js';
import type { IndexChange } from './indexes/update.js';
import type { Stored } from './indexes/values.js';

export { indexFirstReads, writtenTypes } from './first-reads.js';
export type { IndexedOp } from './index-rebuild.js';

/** Above this many documents of one type in a write, rebuild the type from its own rows. */
export const LARGE_TYPE_WRITE = 256;

/** How DocumentStore maintains indexes: part size, and when a write of a type rebuilds it from its rows. */
export interface DocumentIndexOptions extends IndexOptions {
  /** Above this many documents of one type in a write, rebuild the type from its own rows (default 256). */
  largeTypeWrite?: number;
}

export interface IndexWrite {
  store: RefStore;
  /** The write's documents (known once every part has arrived, for a commit in parts). */
  ops: () => readonly IndexedOp[];
  /** Indexes declared in the same commit: per (namespace, type), `fields: []` drops it. */
  declare?: readonly TypeIndex[];
  options?: DocumentIndexOptions;
}

const typeKey = (t: { namespace: string; type: string }) => `${t.namespace}/${t.type}`;

/**
 * The declaration after `declare` is applied to `before` (upsert per type; no fields = drop), validated.
 *
 * @example
 * applyDeclare({ version: 1, indexes: [] }, [{ namespace: 'g', type: 'repo', fields: ['data.stars'] }]);
 */
export function applyDeclare(before: IndexDeclaration, declare: readonly TypeIndex[]): IndexDeclaration {
  const byType = new Map(before.indexes.map((t) => [typeKey(t), t]));
  for (const t of declare) {
    byType.delete(typeKey(t));
    if (t.fields.length > 0) byType.set(typeKey(t), { namespace: t.namespace, type: t.type, fields: [...t.fields] });
  }
  return validateDeclaration({ version: 1, indexes: [...byType.values()] });
}

/** What a hook's first read round gave: key → value and blob SHA, or null when absent. */
export type FirstRead = Map<string, { value: Uint8Array; blobSha: string } | null>;

/**
 * The index changes of one write on the tip `base`, given the first read round ({@link indexFirstReads}
 * of every written or declared type, read together with whatever else the hook needed).
 *
 * @example
 * const first = await base.read([...indexFirstReads(types), ...others]);
 * const changes = await indexChanges({ store, ops: () => ops }, base, first);
 */
export async function indexChanges(w: IndexWrite, base: DeriveBase, first: FirstRead): Promise<Change[]> {
  const ops = withWrittenShas(w.ops(), base);
  const stored = first.get(DECLARATION_KEY)?.value;
  const before = parseDeclaration(stored);
  const after = w.declare ? applyDeclare(before, w.declare) : before;
  const files: IndexFiles = new Map();
  const changed = declarationChanges(before, after);
  const manifest = (t: { namespace: string; type: string }) => manifestAt(base, first, t);
  await dropRemoved(changed.drop, manifest, files);
  const byType = groupByType(ops);
  const rebuilt = new Set(changed.build.map(typeKey));
  for (const t of after.indexes) {
    const mine = byType.get(typeKey(t)) ?? [];
    if (mine.length === 0 && !rebuilt.has(typeKey(t))) continue;
    for (const [p, b] of await typeFiles(w, base, t, mine, await manifest(t), rebuilt.has(typeKey(t)))) {
      files.set(p, b);
    }
  }
  const declaration = serializeDeclaration(after);
  if (w.declare && !sameBytes(stored, declaration)) {
    files.set(DECLARATION_KEY, after.indexes.length === 0 ? null : declaration);
  }
  return toChanges(files);
}

/**
 * A derive hook doing the index work alone (its own first read round). DocumentStore installs the
 * declarations hook (declarations.ts), which does this and the schema checks in one; this stays for tests
 * of the index work by itself.
 *
 * @example
 * await store.commit(changes, { derive: indexDerive({ store, ops: () => ops }) });
 */
export function indexDerive(w: IndexWrite): DeriveChanges {
  return async (base) => {
    const types = writtenTypes(w.ops(), w.declare ?? []);
    if (types.length === 0 && !w.declare) return [];
    return indexChanges(w, base, await base.read(indexFirstReads(types)));
  };
}

/** Fill in the new blob SHAs from the store, which hashed every value it writes (no document is hashed twice). */
function withWrittenShas(ops: readonly IndexedOp[], base: DeriveBase): readonly IndexedOp[] {
  for (const op of ops) {
    if (op.after?.blobSha !== '') continue;
    const sha = base.written(op.key);
    if (sha === undefined) throw new InvalidConfig('derive', `the store did not report the blob of ${op.key}`);
    op.after.blobSha = sha;
  }
  return ops;
}

/** Delete the files of every type whose index the declaration drops (or declares with other fields). */
async function dropRemoved(
  drop: readonly TypeIndex[],
  manifest: (t: TypeIndex) => Promise<Uint8Array | undefined>,
  files: IndexFiles,
): Promise<void> {
  for (const t of drop) {
    const m = safeManifest(await manifest(t), t);
    if (!m) continue;
    for (const p of [manifestPath(t.namespace, t.type), ...oldPaths(m)]) files.set(p, null);
  }
}

/** A type's manifest at the tip: from the first read round, else read now (a dropped type not written). */
async function manifestAt(
  base: DeriveBase,
  first: FirstRead,
  t: { namespace: string; type: string },
): Promise<Uint8Array | undefined> {
  const path = manifestPath(t.namespace, t.type);
  if (first.has(path)) return first.get(path)?.value;
  return (await base.read([path])).get(path)?.value;
}

/** The write's documents grouped by `namespace/type` (one pass, whatever the number of declared types). */
function groupByType(ops: readonly IndexedOp[]): Map<string, IndexedOp[]> {
  const out = new Map<string, IndexedOp[]>();
  for (const op of ops) {
    const k = typeKey(op);
    const list = out.get(k);
    if (list) list.push(op);
    else out.set(k, [op]);
  }
  return out;
}

/** A manifest read back, or undefined when absent or damaged (a rebuild replaces it). */
function safeManifest(bytes: Uint8Array | undefined, t: TypeIndex): Manifest | undefined {
  try {
    return manifestOf(bytes, t);
  } catch (e) {
    if (e instanceof InvalidResponse) return undefined;
    throw e;
  }
}

/** The index files of type `t` after the write: incremental, from its own rows, or from the documents. */
async function typeFiles(
  w: IndexWrite,
  base: DeriveBase,
  t: TypeIndex,
  mine: readonly IndexedOp[],
  manifestBytes: Uint8Array | undefined,
  rebuilt: boolean,
): Promise<IndexFiles> {
  const o = w.options ?? {};
  const m = safeManifest(manifestBytes, t);
  const fromDocuments = () => buildFromDocuments(w.store, base.version, t, mine, m, o, () => declaredMeanwhile(t));
  const current = m && m.fields.join('\n') === t.fields.join('\n') ? m : undefined;
  if (rebuilt || !current) return fromDocuments();
  try {
    // A large write, or an index in an older format (format 1 rows are still read), is rebuilt from one run.
    if (mine.length > (w.options?.largeTypeWrite ?? LARGE_TYPE_WRITE) || current.version !== FORMAT_VERSION)
      return await buildFromRun(base.read, current, t, mine, o, () => declaredMeanwhile(t));
    return await incremental(base, t, mine, { bytes: manifestBytes!, parsed: current }, o);
  } catch (e) {
    // A damaged index (untrusted bytes read back) is rebuilt from the documents: exact, if slower.
    if (e instanceof InvalidResponse) return fromDocuments();
    throw e;
  }
}

/** A 1..k-document update of `t`: the previous documents, then the parts that hold their rows. */
async function incremental(
  base: DeriveBase,
  t: TypeIndex,
  mine: readonly IndexedOp[],
  manifest: { bytes: Uint8Array; parsed: Manifest },
  o: IndexOptions,
): Promise<IndexFiles> {
  const previous = await base.read(mine.map((op) => op.key));
  const changes: IndexChange[] = [];
  for (const op of mine) {
    const got = previous.get(op.key);
    if (got && op.after && got.blobSha === op.after.blobSha) continue;
    const change: IndexChange = { namespace: t.namespace, type: t.type, id: op.id };
    if (got && base.version)
      change.before = { blobSha: got.blobSha, data: decodeEnvelope(got.value, base.version).data };
    if (op.after) change.after = afterState(op, t);
    if (change.before || change.after) changes.push(change);
  }
  const declaration: IndexDeclaration = { version: 1, indexes: [t] };
  const path = manifestPath(t.namespace, t.type);
  const have = new Map<string, Uint8Array | undefined>([[path, manifest.bytes]]);
  // The manifest was parsed once (typeFiles): the plan and the update reuse it rather than parse it again.
  const parsed = new Map([[path, manifest.parsed]]);
  await fetchInto(
    base,
    have,
    partsToRead(declaration, (p) => have.get(p), changes, parsed),
  );
  // A merge with a neighbour part needs that part too: updateIndex names it; fetch it and go again.
  for (let round = 0; ; round++) {
    const wanted: string[] = [];
    const read = (p: string) => {
      if (!have.has(p)) wanted.push(p);
      return have.get(p);
    };
    try {
      const u = updateIndex(declaration, read, changes, o, parsed);
      // A counts file not fetched reads as absent (left alone): fetch it and go again, never skip it.
      if (wanted.length > 0) {
        if (round > 3) throw new InvalidResponse(`index files ${wanted.join(', ')} could not be read`, {});
        await fetchInto(base, have, wanted);
        continue;
      }
      const out: IndexFiles = new Map();
      for (const p of u.deletes) out.set(p, null);
      for (const [p, b] of u.writes) out.set(p, b);
      return await withMissingCounts(base, t, mine, manifest.parsed, have, out);
    } catch (e) {
      if (wanted.length === 0 || round > 3) throw e;
      await fetchInto(base, have, wanted);
    }
  }
}

/**
 * An index written before value counts (counts.ts) lacks the counts files this write would update: count
 * those fields from one run of the index (read whole, once: 1–2 GraphQL requests at 100,000 documents) so
 * the write adds them, exact — the next writes then keep them at no extra read.
 */
async function withMissingCounts(
  base: DeriveBase,
  t: TypeIndex,
  mine: readonly IndexedOp[],
  m: Manifest,
  have: Map<string, Uint8Array | undefined>,
  out: IndexFiles,
): Promise<IndexFiles> {
  const absent = t.fields.filter((f) => {
    const p = countsPath(t.namespace, t.type, f);
    return have.has(p) && have.get(p) === undefined;
  });
  if (absent.length === 0) return out;
  for (const [p, b] of await countsFromRun(base.read, m, t, mine, absent, () => declaredMeanwhile(t))) out.set(p, b);
  return out;
}

function afterState(op: IndexedOp, t: TypeIndex) {
  const a = op.after!;
  const d = dataAfter(op);
  if (d) return { blobSha: a.blobSha, data: d.data };
  const v = a as { values: Stored[]; fields: readonly string[] };
  if (v.fields.join('\n') !== t.fields.join('\n')) declaredMeanwhile(t);
  return { blobSha: a.blobSha, values: v.values };
}

async function fetchInto(base: DeriveBase, have: Map<string, Uint8Array | undefined>, paths: readonly string[]) {
  const todo = paths.filter((p) => !have.has(p));
  if (todo.length === 0) return;
  const got = await base.read(todo);
  for (const p of todo) have.set(p, got.get(p)?.value);
}

/** A commit in parts took its documents' values for the declaration it saw first; it changed since. */
function declaredMeanwhile(t: TypeIndex): never {
  throw new InvalidConfig(
    'indexes',
    `the index declaration of ${t.namespace}/${t.type} changed while this write was under way (now: ${t.fields.join(', ')}); nothing was written — run the write again`,
    { namespace: t.namespace, type: t.type },
  );
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

function toChanges(files: IndexFiles): Change[] {
  return [...files].map(([key, value]) => (value === null ? { op: 'delete', key } : { op: 'put', key, value }));
}
