/** The documents of one crash-safety write, and the blob SHA each gets: a section is "all of write L" when every listed key has L's SHA. */

import { blobSha } from '../../src/core/git/objects.js';
import { encodeEnvelope } from '../../src/document/envelope.js';
import { deriveKey } from '../../src/document/identity.js';

export function crashDocuments(count: number, label: string) {
  return Array.from({ length: count }, (_, i) => ({
    namespace: 'crash',
    type: `t${i % 20}`,
    id: `d${i}`,
    data: { i, label },
  }));
}

/** key → blob SHA of every document of write `label`. */
export function expectedShas(count: number, label: string): Map<string, string> {
  return new Map(
    crashDocuments(count, label).map((d) => [
      deriveKey({ namespace: d.namespace, doc_type: d.type, id: d.id }),
      blobSha(encodeEnvelope(d)),
    ]),
  );
}
