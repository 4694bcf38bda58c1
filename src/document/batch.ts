/**
 * The write side of DocumentStore: operations turned into store changes (each document validated and
 * encoded once), and the parts of a large `putMany`, cut in key order so that each part — and each
 * create-tree request made from it — touches as few directories as possible: in input order, a run of
 * documents spread over 50 directories touches all 50 every time.
 *
 * What a large `putMany` checks when: every document's fields and key (and duplicate keys) before the
 * first part, so such an error costs no request; its `data` when its part is encoded, because checking it
 * is serialising it (for data whose keys are not in canonical order, several times the cost of the native
 * serialiser) and a second pass would double that. Data that is not JSON therefore fails the write after the earlier parts'
 * create-tree requests were sent, but before any commit: the section is unchanged, and the trees already
 * uploaded are unreferenced (GitHub drops them).
 */
import { utf8 } from '../core/bytes.js';
import { InvalidDocument, InvalidKey } from '../core/errors.js';
import { isValidKey } from '../core/keys.js';
import type { Change } from '../core/refstore.js';
import type { DocumentOp } from './document-types.js';
import { checkedDocumentKey, type DocumentInput, documentChange, envelopeText } from './envelope.js';
import { deriveKey, RESERVED_PREFIX } from './identity.js';
import type { PartsSchemas } from './schema/parts.js';

/** The write's schema checks when it declares schemas: each document is checked as it is encoded. */
type EncodeChecks = Pick<PartsSchemas, 'checkEncoded'> | undefined;

/**
 * Validate and encode operations into store changes (each document validated once, here), each document
 * checked against a schema the write declares for its type as it is encoded (`checks`, schema/parts.ts).
 *
 * @example
 * opsToChanges([{ op: 'put', document: { namespace: 'n', type: 't', id: 'a', data: 1 } }]);
 * // [{ op: 'put', key: 'n/t/a.json', value: <canonical JSON bytes> }]
 */
export function opsToChanges(ops: readonly DocumentOp[], checks?: EncodeChecks): Change[] {
  if (!Array.isArray(ops)) throw new InvalidDocument('ops', 'commit takes an array of operations');
  return ops.map((o, i) => {
    if (o?.op === 'put') {
      const change = documentChange(o.document);
      checks?.checkEncoded(change.key, o.document.namespace, o.document.type, o.document.data);
      return { op: 'put', ...change };
    }
    if (o?.op === 'delete') return { op: 'delete', key: deriveKey(o.identity) };
    if (o?.op === 'meta') return metaChange(o, i);
    throw new InvalidDocument(
      `ops[${i}].op`,
      `operation ${i} must have op "put" (with document), "delete" (with identity) or "meta" (with key and value)`,
    );
  });
}

/** A metadata operation: only under the reserved prefix, so it can never overwrite or shadow a document. */
function metaChange(o: { key: string; value: Uint8Array | string | null }, i: number): Change {
  if (!isValidKey(o.key) || !o.key.startsWith(RESERVED_PREFIX) || o.key.length === RESERVED_PREFIX.length) {
    throw new InvalidDocument(
      `ops[${i}].key`,
      `metadata key ${JSON.stringify(o.key)} must be a valid key under "${RESERVED_PREFIX}" (e.g. ${RESERVED_PREFIX}state/x.json)`,
    );
  }
  if (o.value === null) return { op: 'delete', key: o.key };
  if (typeof o.value !== 'string' && !(o.value instanceof Uint8Array)) {
    throw new InvalidDocument(`ops[${i}].value`, 'a metadata value must be bytes, a string, or null to delete');
  }
  return { op: 'put', key: o.key, value: typeof o.value === 'string' ? utf8(o.value) : o.value };
}

/**
 * The changes of a `putMany`, in parts of `size` cut in key order. Every document's fields and key are
 * checked before the first part (such an error fails the write before any request); each document is
 * encoded — and its `data` checked, against a schema the write declares for its type too (`checks`) — only
 * when its part is taken, so one part's encoded documents are held at a time (see the module header for
 * what a late error costs).
 *
 * @example
 * await commitInParts(store, putManyParts(docs, 1000), options);
 */
export function putManyParts(
  docs: readonly DocumentInput[],
  size: number,
  onKeys?: (keys: readonly string[]) => void,
  checks?: EncodeChecks,
): Generator<Change[]> {
  const keys = docs.map((d) => checkedDocumentKey(d));
  onKeys?.(keys);
  // Indices sorted by key: a typed array, not an object per document.
  const order = Uint32Array.from({ length: docs.length }, (_, i) => i);
  order.sort((a, b) => {
    const x = keys[a] as string;
    const y = keys[b] as string;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  for (let i = 1; i < order.length; i++) {
    const key = keys[order[i] as number] as string;
    if (key === keys[order[i - 1] as number]) {
      throw new InvalidKey(key, 'duplicate', `key ${JSON.stringify(key)} appears more than once in one commit`);
    }
  }
  return encodedParts(docs, keys, order, size, checks);
}

function* encodedParts(
  docs: readonly DocumentInput[],
  keys: readonly string[],
  order: Uint32Array,
  size: number,
  checks: EncodeChecks,
): Generator<Change[]> {
  for (let from = 0; from < order.length; from += size) {
    const part: Change[] = [];
    for (const i of order.subarray(from, from + size)) {
      const doc = docs[i] as DocumentInput;
      const key = keys[i] as string;
      part.push({ op: 'put', key, value: utf8(envelopeText(doc)) });
      checks?.checkEncoded(key, doc.namespace, doc.type, doc.data);
    }
    yield part;
  }
}
