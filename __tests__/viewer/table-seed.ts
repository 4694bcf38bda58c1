/**
 * A type of N documents seeded straight into the emulator's git state, with its index built by the
 * library's own index builder from the same envelopes (as __tests__/remote-api/derive-scale.test.ts does
 * for 100,000 documents): fast at any N, and exactly what a docdb writer leaves in a section.
 */
import { blobSha } from '../../src/core/git/objects.js';
import { encodeEnvelope } from '../../src/document/envelope.js';
import { DECLARATION_KEY, serializeDeclaration } from '../../src/document/indexes/declaration.js';
import { buildIndex } from '../../src/document/indexes/index.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { OWNER } from '../remote-api/helpers.js';

export interface SeedSpec {
  n: number;
  namespace?: string;
  type?: string;
  id: (i: number) => string;
  data: (i: number) => Record<string, unknown>;
  /** Indexed fields; none: the type has no index. */
  fields?: string[];
  /** Leave out the index's value counts (an index written before docdb kept them). */
  withoutCounts?: boolean;
}

/**
 * Commit the documents (and their index) as the section `refs/docdb/documents` of `repo`; returns the
 * files committed (a test reads the index's manifest from them).
 *
 * @example
 * seedType(world.em, repo, { n: 10_000, id: (i) => `octo/r${i}`, data: (i) => ({ stars: i }), fields: ['data.stars'] });
 */
export function seedType(em: EmulatorHandle, repo: string, spec: SeedSpec): Record<string, Uint8Array> {
  const namespace = spec.namespace ?? 'github';
  const type = spec.type ?? 'repo';
  const files: Record<string, Uint8Array> = {};
  const docs = [];
  for (let i = 0; i < spec.n; i++) {
    const id = spec.id(i);
    const data = spec.data(i);
    const bytes = encodeEnvelope({ namespace, type, id, data });
    files[`${namespace}/${type}/${id}.json`] = bytes;
    docs.push({ namespace, type, id, blobSha: blobSha(bytes), data });
  }
  if (spec.fields) {
    const declaration = { version: 1 as const, indexes: [{ namespace, type, fields: spec.fields }] };
    for (const [path, bytes] of buildIndex(declaration, docs)) {
      if (!(spec.withoutCounts && path.endsWith('/counts.json'))) files[path] = bytes;
    }
    files[DECLARATION_KEY] = serializeDeclaration(declaration);
  }
  em.state.commitFiles(`${OWNER}/${repo}`, { branch: 'refs/docdb/documents', orphan: true, files });
  return files;
}
