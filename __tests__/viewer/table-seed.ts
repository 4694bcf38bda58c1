/**
 * A type of N documents seeded straight into the emulator's git state, with its index built by the
 * library's own index builder from the same envelopes (as __tests__/remote-api/derive-scale.test.ts does
 * for 100,000 documents): fast at any N, and exactly what a docdb writer leaves in a section.
 */
import { blobSha } from '../../src/core/git/objects.js';
import { encodeEnvelope } from '../../src/document/envelope.js';
import { DECLARATION_KEY, serializeDeclaration } from '../../src/document/indexes/declaration.js';
import { buildIndex } from '../../src/document/indexes/index.js';
import {
  buildSearch,
  SEARCH_DECLARATION_KEY,
  type SearchOptions,
  serializeSearchDeclaration,
} from '../../src/document/search/index.js';
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
  /** Searchable fields (docs/search.md); none: the type declares no search. */
  search?: string[];
}

/**
 * Commit the documents (and their index) as the section `refs/docdb/documents` of `repo`; returns the
 * files committed (a test reads the index's manifest from them).
 *
 * @example
 * seedType(world.em, repo, { n: 10_000, id: (i) => `octo/r${i}`, data: (i) => ({ stars: i }), fields: ['data.stars'] });
 */
export function seedType(em: EmulatorHandle, repo: string, spec: SeedSpec): Record<string, Uint8Array> {
  return seedTypes(em, repo, [spec]);
}

/**
 * Several types in one section, each with its index and its search index when its spec declares them (built
 * by the library's own builders, as a docdb writer leaves them); `searchOptions` bound the term shards.
 *
 * @example
 * seedTypes(world.em, repo, [{ n: 50, id: (i) => `p${i}`, data: (i) => ({ title: `post ${i}` }), search: ['data.title'] }]);
 */
export function seedTypes(
  em: EmulatorHandle,
  repo: string,
  specs: readonly SeedSpec[],
  searchOptions: SearchOptions = {},
): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const docs = [];
  const indexes = [];
  const search = [];
  const uncounted: string[] = [];
  for (const spec of specs) {
    const namespace = spec.namespace ?? 'github';
    const type = spec.type ?? 'repo';
    const typeDocs = [];
    for (let i = 0; i < spec.n; i++) {
      const id = spec.id(i);
      const data = spec.data(i);
      const bytes = encodeEnvelope({ namespace, type, id, data });
      files[`${namespace}/${type}/${id}.json`] = bytes;
      typeDocs.push({ namespace, type, id, blobSha: blobSha(bytes), data });
    }
    docs.push(...typeDocs);
    if (spec.fields) indexes.push({ namespace, type, fields: spec.fields });
    if (spec.withoutCounts) uncounted.push(`_docdb/index/${namespace}/${type}/`);
    if (spec.search) {
      const t = { namespace, type, fields: spec.search };
      search.push(t);
      for (const [path, bytes] of buildSearch(t, typeDocs, searchOptions)) files[path] = bytes;
    }
  }
  if (indexes.length > 0) {
    const declaration = { version: 1 as const, indexes };
    for (const [path, bytes] of buildIndex(declaration, docs)) {
      if (!(path.endsWith('/counts.json') && uncounted.some((dir) => path.startsWith(dir)))) files[path] = bytes;
    }
    files[DECLARATION_KEY] = serializeDeclaration(declaration);
  }
  if (search.length > 0) files[SEARCH_DECLARATION_KEY] = serializeSearchDeclaration({ version: 1, search });
  em.state.commitFiles(`${OWNER}/${repo}`, { branch: 'refs/docdb/documents', orphan: true, files });
  return files;
}
