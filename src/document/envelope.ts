/**
 * Document envelopes: `{ namespace, type, id, version, data }`. The stored blob is the canonical JSON of
 * `{ namespace, type, id, data }`; `version` is never stored — it is the commit SHA the blob was read
 * at, so the same bytes are valid at every version and unchanged data never makes a commit.
 */
import { fromUtf8, utf8 } from '../core/bytes.js';
import { InvalidDocument } from '../core/errors.js';
import { assertValidVersion, type VersionId } from '../core/version.js';
import { canonicalJson } from './canonical-json.js';
import { assertValidIdentity, DOCUMENT_SUFFIX, type Identity, plainIdentityKey } from './identity.js';

/** A document as read: identity (`type` is the identity's doc_type), the commit it was read at, and data. */
export type Envelope<T = unknown> = { namespace: string; type: string; id: string; version: VersionId; data: T };

/** A document to write. `version` is output only: giving one is an error. */
export type DocumentInput<T = unknown> = { namespace: string; type: string; id: string; data: T };

const INPUT_FIELDS = new Set(['namespace', 'type', 'id', 'data']);

/** The identity of an envelope or input (`type` → `doc_type`). */
export function identityOf(doc: { namespace: string; type: string; id: string }): Identity {
  return { namespace: doc.namespace, doc_type: doc.type, id: doc.id };
}

/**
 * Throw `InvalidDocument` / `InvalidIdentity` unless `doc` is a writable document: an object with
 * exactly `namespace`, `type`, `id`, `data`, a valid identity, and JSON `data`.
 */
export function assertValidDocumentInput(doc: unknown): asserts doc is DocumentInput {
  checkedDocumentKey(doc);
}

/**
 * Validate a document input (all but its data, which encoding checks) once; its canonical key.
 *
 * @example
 * checkedDocumentKey({ namespace: 'github', type: 'repo', id: 'octo/hello', data: {} }); // 'github/repo/octo/hello.json'
 */
export function checkedDocumentKey(doc: unknown): string {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new InvalidDocument('document', 'a document must be an object { namespace, type, id, data }');
  }
  const record = doc as Record<string, unknown>;
  if ('version' in record) {
    throw new InvalidDocument(
      'version',
      'version is output only: it is the commit SHA a document is read at and cannot be written. Remove it.',
    );
  }
  // for…in, not Object.keys: no array per document (a batch validates 100,000 of them).
  for (const field in record) {
    if (!INPUT_FIELDS.has(field) && Object.hasOwn(record, field)) {
      const hint = field === 'doc_type' ? ' (an envelope calls it "type")' : '';
      throw new InvalidDocument(
        field,
        `unknown document field ${JSON.stringify(field)}${hint}; allowed: namespace, type, id, data`,
      );
    }
  }
  if (!('data' in record) || record.data === undefined) {
    throw new InvalidDocument('data', 'data is required (any JSON value; use null for "no data")');
  }
  const { namespace, type, id } = record;
  const plain = plainIdentityKey(namespace, type, id);
  if (plain !== undefined) return plain;
  assertValidIdentity({ namespace, doc_type: type, id });
  return `${namespace}/${type}/${id}${DOCUMENT_SUFFIX}`;
}

/**
 * The blob bytes stored for a document: canonical JSON of `{ data, id, namespace, type }`.
 *
 * @example
 * encodeEnvelope({ namespace: 'github', type: 'repo', id: 'octo/hello', data: { stars: 1 } })
 * // UTF-8 of '{\n  "data": {\n    "stars": 1\n  },\n  "id": "octo/hello",\n  "namespace": "github",\n  "type": "repo"\n}\n'
 */
export function encodeEnvelope(doc: DocumentInput): Uint8Array {
  assertValidDocumentInput(doc);
  return utf8(envelopeText(doc));
}

/**
 * Validate a document input ONCE and return its canonical key and stored bytes (what a write needs).
 * `encodeEnvelope` + `deriveKey` would validate the identity twice more; on a 100,000-document batch
 * that is most of the CPU spent before the first request.
 *
 * @example
 * documentChange({ namespace: 'github', type: 'repo', id: 'octo/hello', data: {} })
 * // { key: 'github/repo/octo/hello.json', value: <canonical JSON bytes> }
 */
export function documentChange(doc: unknown): { key: string; value: Uint8Array } {
  const key = checkedDocumentKey(doc);
  return { key, value: utf8(envelopeText(doc as DocumentInput)) };
}

/**
 * The canonical JSON of an input already validated by {@link checkedDocumentKey}: the text whose UTF-8
 * is the stored blob. A write encodes it once; the store hashes those bytes and copies them into its
 * request (never decoded and encoded again).
 *
 * @example
 * const key = checkedDocumentKey(doc);
 * await store.put(key, utf8(envelopeText(doc)));
 */
export function envelopeText(doc: DocumentInput): string {
  // Built in canonical key order: canonicalJson then serialises it natively when the data is canonical too.
  const stored = { data: doc.data, id: doc.id, namespace: doc.namespace, type: doc.type };
  // Paths in errors start at the document, e.g. `data.branches[0].sha`.
  return canonicalJson(stored, 'document');
}

/**
 * Parse stored bytes into an envelope read at `version`. Throws `InvalidDocument` (field `blob`) when
 * the bytes are not a stored envelope, and `InvalidVersion` for a malformed version.
 */
export function decodeEnvelope<T = unknown>(bytes: Uint8Array, version: VersionId): Envelope<T> {
  assertValidVersion(version);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromUtf8(bytes));
  } catch (e) {
    throw new InvalidDocument('blob', `stored document is not UTF-8 JSON: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidDocument('blob', 'stored document is not a JSON object');
  }
  const p = parsed as Record<string, unknown>;
  if (typeof p.namespace !== 'string' || typeof p.type !== 'string' || typeof p.id !== 'string' || !('data' in p)) {
    throw new InvalidDocument('blob', 'stored document lacks namespace, type, id or data');
  }
  return { namespace: p.namespace, type: p.type, id: p.id, version, data: p.data as T };
}

/** True when an envelope belongs to `identity`. */
export function envelopeMatches(
  envelope: { namespace: string; type: string; id: string },
  identity: Identity,
): boolean {
  return (
    envelope.namespace === identity.namespace && envelope.type === identity.doc_type && envelope.id === identity.id
  );
}
