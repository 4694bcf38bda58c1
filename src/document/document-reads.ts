/**
 * The read-side delegations of DocumentStore (document-store.ts extends this): each reaches its code
 * through the features seam (features.ts), so the browser bundle downloads a piece only on its first call.
 * Kept apart so document-store.ts stays the write paths (the plain reads: document-plain-reads.ts).
 */
import type { RefStore } from '../core/refstore.js';
import type { VersionId } from '../core/version.js';
import { features } from './features.js';
import type { Identity } from './identity.js';
import type { DocumentIndexOptions } from './index-write.js';
import type { DocumentQuery, DocumentQueryResult, FacetsQuery, FacetsResult } from './query.js';
import type { SearchDeclaration } from './search/index.js';
import type { DocumentSearchQuery, DocumentSearchResult } from './search-read.js';
import type { DocumentVersionsResult } from './versions-of.js';

export abstract class DocumentReads {
  abstract readonly store: RefStore;
  protected abstract readonly indexOptions: DocumentIndexOptions;

  /**
   * Answer a question about one type from its index (issue 28): `where` clauses combined with AND,
   * `orderBy`, `limit`/`cursor` pages, `fields` (rows from the index alone). On a field without an index
   * the documents are read instead and `answeredBy` says so; `requireIndex: true` makes that an error.
   *
   * @example
   * const { rows, documents, answeredBy, requests } = await docs.query({
   *   namespace: 'github', type: 'repo',
   *   where: [{ field: 'data.language', op: '=', value: 'TypeScript' }],
   *   orderBy: { field: 'data.stars', direction: 'desc' }, limit: 20,
   * });
   */
  async query<T = unknown>(q: DocumentQuery): Promise<DocumentQueryResult<T>> {
    return (await features.query()).queryDocuments<T>(this.store, q, this.indexOptions);
  }

  /**
   * Each indexed field's values with their counts over the whole type, from the counts its index keeps: one
   * small read per field (docs/indexes.md "Value counts").
   *
   * @example
   * const { typeCount, fields } = await docs.facets({ namespace: 'github', type: 'repo', fields: ['data.language'] });
   */
  async facets(q: FacetsQuery): Promise<FacetsResult> {
    return (await features.query()).typeFacets(this.store, q);
  }

  /**
   * Full-text search (issue 42, docs/search.md): documents of `namespace` (one `type`, or every type with
   * search declared) holding every word of `text`, best first by BM25 — the last word also as a prefix,
   * words of 5+ letters with one typo — in pages of `limit` (1..100, default 20) with `cursor`. Each hit's
   * document is read and checked to hold its words (a tampered index is `InvalidResponse`).
   *
   * @example
   * const { hits, total, nextCursor } = await docs.search('git database', { namespace: 'github', type: 'repo', limit: 10 });
   * for (const h of hits) console.log(h.score.toFixed(2), h.id, h.fields.join(', '));
   */
  async search<T = unknown>(text: string, options: DocumentSearchQuery): Promise<DocumentSearchResult<T>> {
    return (await features.search()).searchDocuments<T>(this.store, text, options);
  }

  /**
   * The section's search declaration (at the tip, or at `version`): per `(namespace, type)` the searchable
   * fields; an empty list when none is declared.
   *
   * @example
   * const { search } = await docs.searchDeclaration(); // [{ namespace: 'github', type: 'repo', fields: ['data.title'] }]
   */
  async searchDeclaration(options: { version?: VersionId } = {}): Promise<SearchDeclaration> {
    return (await features.search()).storedSearchDeclaration(this.store, options);
  }

  /**
   * The document at each of `versions` (commits of the section), in order, null where it is absent: one
   * GraphQL query per 100 versions on the GitHub API with a token (`RefStore.readVersions`), else one read each.
   *
   * @example
   * const { entries } = await docs.history(identity, { limit: 100 });
   * const { documents } = await docs.versionsOf(identity, entries.map((e) => e.version));
   */
  async versionsOf<T = unknown>(
    identity: Identity,
    versions: readonly VersionId[],
  ): Promise<DocumentVersionsResult<T>> {
    return (await features.versions()).documentVersions<T>(this.store, identity, versions);
  }
}
