/**
 * The derive hook DocumentStore installs on every write, in front of the declarations hook
 * (declarations.ts): a write that declares nothing makes the hook's first read round itself
 * (first-reads.ts) and, when the section declares nothing about the written types — no index of theirs, no
 * manifest, no schema file — is done with no further code: the declarations hook would return no changes
 * from that same read. Otherwise the declarations hook is loaded (`features.write()`) and runs on the
 * answer already read, so the section costs the same requests either way. This is what lets the browser
 * bundle leave the index engine, the schema validator and expectations out of a page that only puts.
 */
import type { DeriveBase, DeriveChanges } from '../core/refstore.js';
import type { DeclarationsWrite } from './declarations.js';
import type { DocumentFeatures } from './features.js';
import { declarationsFirstReads, SEARCH_DECLARATION_PATH, writtenTypes } from './first-reads.js';
import type { IndexedOp } from './index-write.js';

type TypeName = Pick<IndexedOp, 'namespace' | 'type'>;

import { DECLARATION_KEY, parseDeclaration } from './indexes/declaration.js';

/**
 * The ONE derive hook of a DocumentStore write: the caller's guard (and the write's expectations) first,
 * then the declarations work — loaded only when the write or the section needs it.
 *
 * @example
 * await store.commit(changes, { derive: lightWriteHook({ store, ops: () => indexedOpsOf(ops, changes) }, features) });
 */
export function lightWriteHook(w: DeclarationsWrite, features: DocumentFeatures): DeriveChanges {
  if (w.indexes || w.schemas || w.search || w.rebuildSearch || w.parts) {
    // The write declares something (or checks schemas as it encodes): the full hook, as it is.
    return async (base) => (await features.write()).writeHook(w)(base);
  }
  return async (base) => {
    await w.guard?.(base);
    const ops = w.ops();
    const types = writtenTypes(ops);
    if (types.length === 0) return [];
    const keys = declarationsFirstReads(types);
    const first = await base.read(keys);
    if (!declaresAnything(first, types)) return [];
    const { declarationsDerive } = await features.write();
    return declarationsDerive({ ...w, guard: undefined, ops: () => ops })(withFirstRead(base, keys, first));
  };
}

/**
 * Whether the first read round found anything the declarations hook acts on for these types: a manifest or
 * a schema file of one of them, or an index or search declaration naming one of them.
 */
function declaresAnything(first: Map<string, unknown>, types: readonly TypeName[]): boolean {
  for (const [key, got] of first) if (key !== DECLARATION_KEY && key !== SEARCH_DECLARATION_PATH && got) return true;
  const names = (t: TypeName) => types.some((o) => o.namespace === t.namespace && o.type === t.type);
  const value = (key: string) => (first.get(key) as { value: Uint8Array } | null | undefined)?.value;
  const search = value(SEARCH_DECLARATION_PATH);
  if (search && searchNames(search, names)) return true;
  const indexes = value(DECLARATION_KEY);
  return indexes !== undefined && parseDeclaration(indexes).indexes.some(names);
}

/**
 * Whether the search declaration names one of the written types, read without the search core (the entry
 * of the browser bundle does not carry it): anything but the plain shape counts as naming them, so the full
 * hook — which parses it strictly — decides (a damaged declaration is its `InvalidResponse`, never skipped).
 */
function searchNames(bytes: Uint8Array, names: (t: TypeName) => boolean): boolean {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { search?: unknown };
    if (!Array.isArray(parsed.search)) return true;
    return parsed.search.some((t: TypeName | null) => typeof t !== 'object' || t === null || names(t));
  } catch {
    return true;
  }
}

/** `base`, with the first read round answered from what was read already (no request spent twice). */
function withFirstRead(base: DeriveBase, keys: readonly string[], first: Awaited<ReturnType<DeriveBase['read']>>) {
  const same = (asked: readonly string[]) => asked.length === keys.length && asked.every((k, i) => k === keys[i]);
  return {
    version: base.version,
    written: (key: string) => base.written(key),
    read: (asked: readonly string[]) => (same(asked) ? Promise.resolve(first) : base.read(asked)),
  } satisfies DeriveBase;
}
