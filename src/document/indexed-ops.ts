/**
 * The documents of a DocumentStore write as index maintenance needs them (index-write.ts): identity,
 * key and data. Their new blob SHAs are left empty here and taken from the store, which hashes every
 * value it writes (`DeriveBase.written`). A commit in parts streams its documents, so it keeps bounded
 * memory: see {@link PartsCollector}.
 */
import type { Change } from '../core/refstore.js';
import type { DocumentOp } from './document-types.js';
import { parseKey } from './identity.js';
import type { IndexedOp } from './index-write.js';
import type { IndexDeclaration } from './indexes/index.js';
import { storedValues } from './indexes/values.js';
import type { PartsSchemas } from './schema/parts.js';

/**
 * The documents of `ops` (already turned into `changes`, index for index); metadata ops are not documents.
 *
 * @example
 * const changes = opsToChanges(ops);
 * const indexed = indexedOpsOf(ops, changes);
 */
export function indexedOpsOf(ops: readonly DocumentOp[], changes: readonly Change[]): IndexedOp[] {
  const out: IndexedOp[] = [];
  ops.forEach((o, i) => {
    const c = changes[i]!;
    if (o.op === 'put' && c.op === 'put') {
      const d = o.document;
      out.push({
        namespace: d.namespace,
        type: d.type,
        id: d.id,
        key: c.key,
        // The blob SHA comes from the store (DeriveBase.written), which hashes the value anyway.
        after: { blobSha: '', data: d.data },
      });
    } else if (o.op === 'delete') {
      out.push({ namespace: o.identity.namespace, type: o.identity.doc_type, id: o.identity.id, key: c.key });
    }
  });
  return out;
}

/** Envelope bytes a commit in parts buffers before it reads the section's declaration (see {@link PartsCollector}). */
export const PARTS_BUFFER_BYTES = 8 * 1024 * 1024;

/**
 * A commit in parts' documents, collected while its parts stream by, for the index hook. The declaration
 * is not known up front (reading it would cost every streamed write requests even when the section has
 * no index), so documents are kept as their envelope bytes — or, for `putMany`, as the caller's own data —
 * until {@link PARTS_BUFFER_BYTES} are buffered; then the declaration is read once and, from there on, a
 * document of an indexed type keeps only its indexed values, and others only their key. So memory stays
 * bounded whatever the write's size; index-write.ts refuses the write if the declaration it sees at
 * commit time indexes a type whose values were not kept. Likewise schemas (schema/parts.ts): a document
 * whose data is dropped is first checked against its type's schema, and the hook (declarations.ts)
 * refuses the write if the schema at commit time is another one; a type whose schema the write declares
 * was checked as it was encoded (batch.ts), so its data is never decoded for that.
 *
 * @example
 * const seen = new PartsCollector(() => docs.indexes());
 * await commitInParts(store, seen.collect(parts), { derive: indexDerive({ store, ops: () => seen.ops }) });
 */
export class PartsCollector {
  /** The ops' new blob SHAs are left empty here: index-write.ts takes them from the store (`written`). */
  readonly ops: IndexedOp[] = [];
  private buffered = 0;
  private fields: Map<string, readonly string[]> | undefined;
  private searched = new Set<string>();

  constructor(
    private readonly readDeclaration: () => Promise<IndexDeclaration>,
    private readonly dataOf?: (key: string) => unknown,
    private readonly limit = PARTS_BUFFER_BYTES,
    /** The write's schema checks, for documents whose data is dropped (none: no schema is checked here). */
    private readonly schemas?: PartsSchemas,
    /**
     * The types whose search the section declares (with the write's own declarations): their documents keep
     * their data — a search index needs their text — so memory is bounded only for the other types.
     */
    private readonly readSearched?: () => Promise<readonly { namespace: string; type: string }[]>,
  ) {}

  /** Pass the parts through, collecting their documents. */
  async *collect(parts: AsyncIterable<readonly Change[]> | Iterable<readonly Change[]>): AsyncGenerator<Change[]> {
    for await (const part of parts) {
      // Data is dropped as it is taken once the declaration is known: learn the part's schemas first.
      if (this.fields && !this.dataOf) await this.schemas?.prepare(typesOf(part.map((c) => parseKey(c.key))));
      for (const c of part) this.take(c);
      if (this.buffered > this.limit && !this.fields) await this.learnDeclaration();
      yield part as Change[];
    }
  }

  private take(c: Change): void {
    const identity = parseKey(c.key);
    if (!identity) return;
    const base = { namespace: identity.namespace, type: identity.doc_type, id: identity.id, key: c.key };
    if (c.op === 'delete') return void this.ops.push(base);
    const value = c.value as Uint8Array;
    // The blob SHA is the store's (DeriveBase.written): hashing every document twice costs CPU.
    const sha = '';
    if (this.dataOf) return void this.ops.push({ ...base, after: { blobSha: sha, data: this.dataOf(c.key) } });
    if (!this.fields) {
      this.buffered += value.length;
      return void this.ops.push({ ...base, after: { blobSha: sha, bytes: value } });
    }
    this.ops.push({ ...base, after: this.valuesOf(base, sha, () => value) });
  }

  /**
   * A document's indexed values under the known declaration (none for a type it does not index), its data
   * checked against its type's schema from the section first: the data is dropped here.
   */
  private valuesOf(
    d: { namespace: string; type: string; id: string; key: string },
    sha: string,
    bytes: () => Uint8Array,
  ) {
    const f = this.fields!.get(`${d.namespace}/${d.type}`);
    const checked = this.schemas?.needsData(d.namespace, d.type) === true;
    const searched = this.searched.has(`${d.namespace}/${d.type}`);
    if (!f && !checked && !searched) return { blobSha: sha, values: [], fields: [] };
    const data = (JSON.parse(new TextDecoder().decode(bytes())) as { data: unknown }).data;
    if (checked) this.schemas!.check(d.key, d.namespace, d.type, data);
    if (searched) return { blobSha: sha, data };
    if (!f) return { blobSha: sha, values: [], fields: [] };
    return { blobSha: sha, values: storedValues(f, { id: d.id, blobSha: sha, data }), fields: f };
  }

  /** Read the declaration (and the buffered types' schemas); turn the buffered documents into values (dropping their bytes). */
  private async learnDeclaration(): Promise<void> {
    const d = await this.readDeclaration();
    const searched = (await this.readSearched?.()) ?? [];
    this.searched = new Set(searched.map((t) => `${t.namespace}/${t.type}`));
    await this.schemas?.prepare(typesOf(this.ops));
    this.fields = new Map(d.indexes.map((t) => [`${t.namespace}/${t.type}`, t.fields]));
    for (const op of this.ops) {
      const a = op.after;
      if (a && 'bytes' in a) op.after = this.valuesOf(op, a.blobSha, () => a.bytes);
    }
    this.buffered = 0;
  }
}

/** The distinct `(namespace, type)`s of documents (entries that are not documents skipped). */
function typesOf(
  docs: readonly ({ namespace: string; type?: string; doc_type?: string } | null)[],
): { namespace: string; type: string }[] {
  const out = new Map<string, { namespace: string; type: string }>();
  for (const d of docs) {
    const type = d?.type ?? d?.doc_type;
    if (d && type !== undefined) out.set(`${d.namespace}/${type}`, { namespace: d.namespace, type });
  }
  return [...out.values()];
}
