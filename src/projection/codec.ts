/**
 * How the runner turns an identity into a key and a document into the bytes stored at that key.
 * The default is the document layer's own `deriveKey` and `encodeEnvelope`, so documents written by
 * a projection are byte-identical to documents written with `DocumentStore.put` — which is what makes
 * local blob-SHA change detection exact. Injectable for tests.
 */
import { encodeEnvelope } from '../document/envelope.js';
import { deriveKey, type Identity } from '../document/identity.js';

export interface DocumentInput {
  namespace: string;
  type: string;
  id: string;
  data: Record<string, unknown>;
}

export interface DocumentCodec {
  key(identity: Identity): string;
  encode(document: DocumentInput): Uint8Array | string;
}

/** The document layer's encoding. */
export const defaultCodec: DocumentCodec = {
  key: (identity) => deriveKey(identity),
  encode: (document) => encodeEnvelope(document),
};
