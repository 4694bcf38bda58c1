/**
 * The declarations seam (issue 38; ARCHITECTURE.md "Wave 5 seams"): the ONE derive hook DocumentStore's
 * commit path installs, so every writer — put, putMany, commit, commitParts, delete, a shard merge, the
 * browser client, the CLI — obeys a section's declarations in the same commit, on every backend.
 *
 * Each attempt (again after a lost race, on the new tip):
 * 1. ONE batched read (`base.read`) of everything declared about the written types: the index declaration
 *    and their manifests (index-write.ts) and their per-type files `_docdb/types/<ns>/<type>.json`
 *    (schema/declaration.ts) — a schema costs no request of its own;
 * 2. the write's documents checked against their type's schema: one the write declares was checked as each
 *    document was encoded (schema/parts.ts), so only those of types whose schema is the tip's are checked
 *    here; a commit in parts checked its parts as they arrived and is refused if the schema it used is not
 *    the one at the tip; any violation (found here or while encoding) ends the write with ONE
 *    `InvalidDocument` (schema/enforce.ts) and nothing written;
 * 3. schemas the write declares: refused if documents already in the section break them (unless `force`),
 *    their files written (nothing when byte-identical; deleted when dropped);
 * 4. the index work (index-write.ts), from the same first read;
 * 5. the search work (search-write.ts), from the same first read, side by side with the index work: the
 *    written documents' previous versions are read once for both, and the index parts and search shards
 *    in one round (shared-reads.ts).
 */
import type { Change, DeriveBase, DeriveChanges, RefStore } from '../core/refstore.js';
import { declarationsFirstReads, writtenTypes } from './first-reads.js';
import { type DocumentIndexOptions, type FirstRead, type IndexedOp, indexChanges } from './index-write.js';
import type { TypeIndex } from './indexes/index.js';
import { type CompiledSchema, compiledSchemaFor, compileSchema } from './schema/compile.js';
import {
  checkTypeSchemas,
  type DeclaredSchema,
  parseTypeDeclaration,
  typeDeclarationPath,
} from './schema/declaration.js';
import { Violations } from './schema/enforce.js';
import { checkExisting } from './schema/existing.js';
import { type CheckedAgainst, DECLARED_BY_WRITE, type PartsSchemas, schemaChangedMeanwhile } from './schema/parts.js';
import type { TypeSearch } from './search/index.js';
import type { SearchTypeName } from './search-rebuild.js';
import { type DocumentSearchOptions, searchChanges } from './search-write.js';
import { sharedReads } from './shared-reads.js';

/** A schema declared by a write, checked and compiled (null: dropped). */
export interface PreparedSchema extends DeclaredSchema {
  compiled: CompiledSchema | null;
  /** Where it came from, for errors: `schemas[0].schema`, or `schema` for `declareSchema`. */
  field: string;
}

/** One write's declarations work. */
export interface DeclarationsWrite {
  store: RefStore;
  /** The write's documents (known once every part has arrived, for a commit in parts). */
  ops: () => readonly IndexedOp[];
  /** Indexes declared in the same commit (index-write.ts). */
  indexes?: readonly TypeIndex[] | undefined;
  /** Schemas declared in the same commit ({@link prepareSchemas}). */
  schemas?: readonly PreparedSchema[] | undefined;
  indexOptions?: DocumentIndexOptions;
  /** Search declared in the same commit (search-write.ts): per (namespace, type), `fields: []` drops it. */
  search?: readonly TypeSearch[] | undefined;
  /** Declared types whose search is built again from their documents (search-rebuild.ts). */
  rebuildSearch?: readonly SearchTypeName[] | undefined;
  searchOptions?: DocumentSearchOptions;
  /** What the write checked as its documents were encoded, and a commit in parts as its parts arrived. */
  parts?: PartsSchemas;
  /** The caller's guard and the write's expectations (expect/write.ts), run first on each attempt's tip. */
  guard?: ((base: DeriveBase) => Promise<void>) | undefined;
}

const typeKey = (t: { namespace: string; type: string }) => `${t.namespace}/${t.type}`;

/**
 * The `schemas` option of a write, checked and compiled before any I/O: a bad entry or a schema that is
 * not valid JSON Schema is `InvalidConfig` naming `schemas[i]…` (`field` names a lone schema instead).
 *
 * @example
 * const schemas = prepareSchemas([{ namespace: 'github', type: 'repo', schema: { type: 'object' } }]);
 */
export function prepareSchemas(list: unknown, field?: string): PreparedSchema[] {
  return checkTypeSchemas(list, field).map((d, i) => {
    const where = field ?? `schemas[${i}].schema`;
    return { ...d, field: where, compiled: d.schema === null ? null : compileSchema(d.schema, { field: where }) };
  });
}

/**
 * The hook DocumentStore installs on a write: the caller's `guard` (WriteGuardOptions: a compare-and-set
 * against what others wrote since it started, e.g. the shard merge) on the attempt's tip first, then
 * {@link declarationsDerive}.
 *
 * @example
 * await store.commit(changes, { derive: writeHook({ store, ops: () => indexedOpsOf(ops, changes), guard }) });
 */
export function writeHook(w: DeclarationsWrite): DeriveChanges {
  const derive = declarationsDerive(w);
  const guard = w.guard;
  if (!guard) return derive;
  return async (base: DeriveBase) => {
    await guard(base);
    return derive(base);
  };
}

/**
 * The derive hook of one DocumentStore write.
 *
 * @example
 * await store.commit(changes, { derive: declarationsDerive({ store, ops: () => indexedOpsOf(ops, changes) }) });
 */
export function declarationsDerive(w: DeclarationsWrite): DeriveChanges {
  return async (base) => {
    const ops = w.ops();
    const types = writtenTypes(ops, w.indexes ?? [], w.schemas ?? [], w.search ?? [], w.rebuildSearch ?? []);
    if (types.length === 0 && !w.indexes && !w.schemas && !w.search) return [];
    const first = await base.read(declarationsFirstReads(types));
    checkDocuments(w, ops, schemasAt(w, types, first));
    const declared = await schemaFiles(w, base, ops, first);
    // Side by side on one memo: the previous documents are read once, the parts and shards in one round.
    const shared = sharedReads(base, first);
    const [indexed, searched] = await Promise.all([
      indexChanges(
        { store: w.store, ops: () => ops, ...(w.indexes ? { declare: w.indexes } : {}), options: w.indexOptions ?? {} },
        shared,
        first,
      ),
      searchChanges(
        { store: w.store, ops, declare: w.search, rebuild: w.rebuildSearch, options: w.searchOptions },
        shared,
        first,
      ),
    ]);
    return [...indexed, ...searched, ...declared];
  };
}

/** A written type's schema on this tip, and what its documents were checked against. */
type TypeCheck = { compiled: CompiledSchema | null; against: CheckedAgainst };

/**
 * Per written type, the schema that applies on this tip (the write's own, else the one at the tip) — but
 * not types with nothing left to check: those the write declares, checked as their documents were encoded,
 * and those with no schema at the tip that a commit in parts did not check against one either.
 */
function schemasAt(
  w: DeclarationsWrite,
  types: readonly { namespace: string; type: string }[],
  first: FirstRead,
): Map<string, TypeCheck> {
  const declared = new Map((w.schemas ?? []).map((d) => [typeKey(d), d]));
  const out = new Map<string, TypeCheck>();
  for (const t of types) {
    const d = declared.get(typeKey(t));
    if (d) {
      if (!w.parts?.checkedAtEncode(t.namespace, t.type)) {
        out.set(typeKey(t), { compiled: d.compiled, against: DECLARED_BY_WRITE });
      }
      continue;
    }
    const path = typeDeclarationPath(t.namespace, t.type);
    const got = first.get(path) ?? null;
    const stored = parseTypeDeclaration(path, got?.value);
    if (!got && (w.parts?.checkedAgainst.get(typeKey(t)) ?? null) === null) continue;
    out.set(typeKey(t), {
      compiled: stored && got ? compiledSchemaFor(got.blobSha, stored.schema, { field: path }) : null,
      against: got?.blobSha ?? null,
    });
  }
  return out;
}

/**
 * Check every written document not checked as it was encoded (all violations at once, with those found
 * while encoding); throws `InvalidDocument` if any.
 */
function checkDocuments(w: DeclarationsWrite, ops: readonly IndexedOp[], schemas: Map<string, TypeCheck>): void {
  const violations = w.parts ? w.parts.violations.copy() : new Violations();
  // Every type checked as encoded (a write declaring its schemas): no walk over the documents at all.
  for (const op of schemas.size === 0 ? [] : ops) {
    const a = op.after;
    const s = schemas.get(typeKey(op));
    if (!a || !s) continue;
    if ('data' in a) {
      if (s.compiled) violations.check(op.key, s.compiled, a.data);
    } else if ('bytes' in a) {
      if (s.compiled) violations.check(op.key, s.compiled, envelopeData(a.bytes));
    } else if ((w.parts?.checkedAgainst.get(typeKey(op)) ?? null) !== s.against) {
      // Its data was checked (and dropped) as its part arrived, against another schema than this tip's.
      schemaChangedMeanwhile(op.namespace, op.type);
    }
  }
  violations.throwIfAny();
}

/**
 * The files of the schemas the write declares: none when byte-identical to the tip's, a delete when
 * dropped; a new or changed schema is first checked against the type's documents already in the section
 * (those the write does not itself replace or delete) unless `force`.
 */
async function schemaFiles(
  w: DeclarationsWrite,
  base: DeriveBase,
  ops: readonly IndexedOp[],
  first: FirstRead,
): Promise<Change[]> {
  const out: Change[] = [];
  let own: Set<string> | undefined;
  for (const d of w.schemas ?? []) {
    const key = typeDeclarationPath(d.namespace, d.type);
    const stored = first.get(key)?.value;
    if (d.bytes === null || d.compiled === null) {
      if (stored !== undefined) out.push({ op: 'delete', key });
      continue;
    }
    if (stored !== undefined && sameBytes(stored, d.bytes)) continue;
    // A first write (no tip) has no documents to check: nor a set of its own keys to build.
    if (!d.force && base.version !== null) {
      own ??= new Set(ops.map((o) => o.key));
      const v = new Violations();
      await checkExisting(w.store, base.version, d, d.compiled, own, v);
      v.throwForDeclaration(d.field, typeKey(d));
    }
    out.push({ op: 'put', key, value: d.bytes });
  }
  return out;
}

/** The data of an envelope this write encoded itself (a commit in parts' buffered bytes). */
function envelopeData(bytes: Uint8Array): unknown {
  return (JSON.parse(new TextDecoder().decode(bytes)) as { data: unknown }).data;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
