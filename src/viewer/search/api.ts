/**
 * What the viewer uses of the client's search (docs/search.md): `client.search` and the section's search
 * declaration, read once per (client, version) — the overview, a type's table and its search all ask the
 * same question of one version, and the answer cannot change at a pinned version.
 */
import type { DocDbClient } from '../../browser/index.js';
import type { ScopePage } from './merge.js';

/** A hit as the viewer shows it (the library's hit: its `document` is the envelope the search read). */
export interface SearchHit {
  namespace: string;
  type: string;
  id: string;
  score: number;
  fields: string[];
  document: { id: string; data: unknown };
}

/** One type's declared search: the fields whose text is searchable. */
export interface DeclaredSearch {
  namespace: string;
  type: string;
  fields: string[];
}

/** Where one search looks: a namespace (every type of it that declares search) or one type. */
export interface SearchScope {
  namespace: string;
  type?: string;
}

/** A search's options as the viewer gives them: always pinned to the view's version. */
export interface SearchCall extends SearchScope {
  limit: number;
  cursor?: string;
  version: string;
}

/**
 * One page of a search in `scope`, pinned to `version`.
 *
 * @example
 * const page = await searchPage(client, 'small engine', { namespace: 'docs', limit: 20, version });
 */
export async function searchPage(client: DocDbClient, text: string, call: SearchCall): Promise<ScopePage<SearchHit>> {
  const { namespace, type, limit, cursor, version } = call;
  return client.search(text, {
    namespace,
    limit,
    version,
    ...(type !== undefined ? { type } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
  });
}

const declarations = new WeakMap<DocDbClient, Map<string, Promise<DeclaredSearch[]>>>();

/**
 * The types of the section that declare search at `version` (once per client and version; a failed read is
 * not kept, so the next view tries again).
 *
 * @example
 * const declared = await declaredSearch(ctx.client, ctx.version);
 */
export function declaredSearch(client: DocDbClient, version: string): Promise<DeclaredSearch[]> {
  const known = knownDeclaredSearch(client, version);
  if (known) return known;
  const byVersion = declarations.get(client) ?? new Map<string, Promise<DeclaredSearch[]>>();
  declarations.set(client, byVersion);
  const got = client.searchDeclaration({ version }).then((d) => d.search);
  byVersion.set(version, got);
  got.catch(() => byVersion.delete(version));
  return got;
}

/**
 * The search declaration at `version` when this client has already read (or is reading) it — no request —
 * else undefined.
 *
 * @example
 * const known = knownDeclaredSearch(ctx.client, ctx.version); // undefined on a cold page
 */
export function knownDeclaredSearch(client: DocDbClient, version: string): Promise<DeclaredSearch[]> | undefined {
  return declarations.get(client)?.get(version);
}
