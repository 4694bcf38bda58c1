/**
 * The documents of a DocumentStore write as index maintenance needs them (index-write.ts): identity,
 * key, new blob SHA (hashed only when an index asks: the store hashes the same bytes once more) and
 * data. A commit in parts streams its documents, so it keeps only what the section's declaration —
 * read when the write starts — indexes: each document's stored values, never its data.
 */
import { blobSha } from '../core/git/objects.js';
import type { Change } from '../core/refstore.js';
import type { DocumentOp } from './document-types.js';
import { parseKey } from './identity.js';
import type { IndexedOp } from './index-write.js';
import type { IndexDeclaration } from './indexes/index.js';
import { storedValues } from './indexes/rows.js';

/** An op's new state whose blob SHA is computed on first use. */
function lazyAfter(value: Uint8Array, data: unknown): { blobSha: string; data: unknown } {
  let sha: string | undefined;
  return {
    get blobSha() {
      sha ??= blobSha(value);
      return sha;
    },
    data,
  };
}

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
        after: lazyAfter(c.value as Uint8Array, d.data),
      });
    } else if (o.op === 'delete') {
      out.push({ namespace: o.identity.namespace, type: o.identity.doc_type, id: o.identity.id, key: c.key });
    }
  });
  return out;
}

/**
 * Collect a commit in parts' documents while its parts stream by: for a type `declaration` indexes, the
 * stored values of its fields; for other types only the key (a delete, or a type declared meanwhile —
 * index-write.ts then refuses the write rather than guess).
 *
 * @example
 * const seen: IndexedOp[] = [];
 * for await (const part of collectParts(parts, declaration, seen)) yield part;
 */
export async function* collectParts(
  parts: AsyncIterable<readonly Change[]> | Iterable<readonly Change[]>,
  declaration: IndexDeclaration,
  into: IndexedOp[],
  dataOf?: (key: string) => unknown,
): AsyncGenerator<Change[]> {
  const fields = new Map(declaration.indexes.map((t) => [`${t.namespace}/${t.type}`, t.fields]));
  for await (const part of parts) {
    for (const c of part) {
      const identity = parseKey(c.key);
      if (!identity) continue;
      const base = { namespace: identity.namespace, type: identity.doc_type, id: identity.id, key: c.key };
      if (c.op === 'delete') {
        into.push(base);
        continue;
      }
      const f = fields.get(`${identity.namespace}/${identity.doc_type}`);
      if (!f) {
        into.push({ ...base, after: { blobSha: '', values: [], fields: [] } });
        continue;
      }
      const value = c.value as Uint8Array;
      // The caller's document when it has it (putMany), else the envelope decoded once.
      const data = dataOf ? dataOf(c.key) : (JSON.parse(new TextDecoder().decode(value)) as { data: unknown }).data;
      const sha = blobSha(value);
      into.push({
        ...base,
        after: { blobSha: sha, values: storedValues(f, { id: identity.id, blobSha: sha, data }), fields: f },
      });
    }
    yield part as Change[];
  }
}
