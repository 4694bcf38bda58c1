/**
 * `DocumentStore.search` (issue 42): words found in a namespace's searchable types, ranked by BM25, read
 * at ONE version in rounds, each one bulk read (`readManyFrom`): the declaration and the types' manifests
 * (with the tip), the term shards the words fall in, the document-table parts of the page's hits, and the
 * page's documents. The search files are untrusted: every returned document is checked to hold the words
 * it was found for (`documentMatches`), so a tampered shard is `InvalidResponse`, never a wrong hit.
 */
import { InvalidConfig, InvalidResponse } from '../core/errors.js';
import { readManyFrom } from '../core/read-many.js';
import type { OperationMeta, ReadManyOptions, RefStore } from '../core/refstore.js';
import { assertValidVersion, type VersionId } from '../core/version.js';
import { addCost } from './bulk.js';
import { decodeEnvelope, type Envelope, envelopeMatches } from './envelope.js';
import { assertValidIdentity, deriveKey } from './identity.js';
import {
  documentMatches,
  idsOf,
  NeedFiles,
  parseSearchDeclaration,
  parseSearchText,
  type RankedHit,
  rankSearch,
  SEARCH_DECLARATION_KEY,
  SEARCH_ROOT,
  type SearchRead,
  searchManifestPath,
  type TypeSearch,
} from './search/index.js';

export { storedSearchDeclaration } from './search-declared.js';

/**
 * The files of each type's directory a search without `type` asks to come with its first round: the manifest
 * (the first round needs it) and the delta (the shards round reads it; its text comes with the directory's
 * listing anyway, GraphQL cannot leave it out, so naming it keeps those bytes from being read twice).
 */
const FIRST_FILES = ['manifest.json', 'delta.txt'];

/** Options of {@link DocumentStore.search}. */
export interface DocumentSearchQuery {
  /** The namespace searched (required). */
  namespace: string;
  /** Only this type; every type of the namespace with search declared when absent. */
  type?: string;
  /** Hits per page, 1..100 (default 20). */
  limit?: number;
  /** `nextCursor` of the previous page (it pins the version the first page read). */
  cursor?: string;
  /** Search at this commit of the section instead of the tip. */
  version?: VersionId;
}

/** One document found. */
export interface SearchHit<T = unknown> {
  namespace: string;
  type: string;
  id: string;
  /** BM25, summed over the matching fields and words (docs/search.md "Scoring"). */
  score: number;
  /** The declared fields the words were found in. */
  fields: string[];
  document: Envelope<T>;
}

export interface DocumentSearchResult<T = unknown> extends OperationMeta {
  /** Best first; ties by (namespace, type, id). */
  hits: SearchHit<T>[];
  /** Documents matching every word, over every type searched. */
  total: number;
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** The section version searched (null: no section yet). */
  version: VersionId | null;
}

/** Hits per page when `limit` is not given. */
export const DEFAULT_SEARCH_LIMIT = 20;
/** Most hits per page (`limit`). */
export const MAX_SEARCH_LIMIT = 100;
/** Rounds of `NeedFiles` a step may ask for before the files are taken as damaged. */
const MAX_ROUNDS = 8;

type Cost = { meta: OperationMeta };
type Files = Map<string, Uint8Array | null>;
/** A ranked hit with the type it came from. */
type TypedHit = RankedHit & { t: TypeSearch };
/** A ranked hit with its id (read from the type's document table). */
type NamedHit = TypedHit & { id: string };

/**
 * Search `text` in `store` (see {@link DocumentSearchQuery}).
 *
 * @example
 * const { hits, total, nextCursor } = await searchDocuments(store, 'git database', { namespace: 'github', type: 'repo' });
 */
export async function searchDocuments<T>(
  store: RefStore,
  text: string,
  q: DocumentSearchQuery,
): Promise<DocumentSearchResult<T>> {
  const { parsed, namespace, type, limit, offset, pinned } = checked(text, q);
  const cost: Cost = { meta: {} };
  const start = await firstRound(store, namespace, type, pinned, cost);
  if (start.version === null) return { ...cost.meta, hits: [], total: 0, nextCursor: null, version: null };
  const version = start.version;
  const files = start.files;
  const ranked = await untilAnswered(
    store,
    { version, files, cost },
    start.types.map((t) => (read: SearchRead) => rankSearch(t, parsed, read)),
  );
  const all = merged(start.types, ranked);
  const span = tiedSpan(all, offset, limit);
  const ids = await untilAnswered(
    store,
    { version, files, cost },
    start.types.map((t) => (read: SearchRead) => idsOf(t, ordinalsOf(span.hits, t), read)),
  );
  const page = pageOf(span, offset, limit, start.types, ids);
  const hits = await readHits<T>(store, page, version, cost);
  const next = offset + limit < all.length ? `${version}.${offset + limit}` : null;
  return { ...cost.meta, hits, total: all.length, nextCursor: next, version };
}

/** Check everything before any I/O. */
function checked(text: unknown, q: DocumentSearchQuery) {
  if (typeof q !== 'object' || q === null) {
    throw new InvalidConfig('search', 'search takes the words and an object { namespace, type?, limit?, cursor? }');
  }
  const parsed = parseSearchText(text);
  assertValidIdentity({ namespace: q.namespace, doc_type: q.type ?? 'x', id: 'x' });
  const limit = q.limit ?? DEFAULT_SEARCH_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new InvalidConfig(
      'limit',
      `limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}, got ${JSON.stringify(limit)}`,
      {
        allowed: `1..${MAX_SEARCH_LIMIT}`,
      },
    );
  }
  if (q.version !== undefined) assertValidVersion(q.version);
  const { version, offset } = splitCursor(q.cursor, q.version);
  return { parsed, namespace: q.namespace, type: q.type, limit, offset, pinned: version };
}

/** `<version>.<offset>`: a page's cursor pins the version the first page read. */
function splitCursor(cursor: string | undefined, pinned: VersionId | undefined) {
  if (cursor === undefined) return { version: pinned, offset: 0 };
  const m = typeof cursor === 'string' ? /^([0-9a-f]{40})\.(0|[1-9][0-9]{0,8})$/.exec(cursor) : null;
  if (!m) {
    throw new InvalidConfig('cursor', 'search cursor is not a cursor docdb issued', {
      allowed: 'the nextCursor of the previous page of this same search',
    });
  }
  if (pinned !== undefined && pinned !== m[1]) {
    throw new InvalidConfig('cursor', `search cursor belongs to version ${m[1]}, not ${pinned}`);
  }
  return { version: m[1] as VersionId, offset: Number(m[2]) };
}

/**
 * The first round: the declaration with the named type's manifest (one read, the tip with it), or the
 * declaration with every type's manifest (and delta) of the namespace as a hint (`childFiles`: a store that
 * can brings them in the same round without knowing the types) and then the manifests of every type it
 * declares there — a read the hint left in the store's cache, or a round of its own. Only declared types are
 * read: a manifest the hint brought for an undeclared type is never looked at.
 */
async function firstRound(
  store: RefStore,
  namespace: string,
  type: string | undefined,
  pinned: VersionId | undefined,
  cost: Cost,
): Promise<{ version: VersionId | null; types: TypeSearch[]; files: Files }> {
  const files: Files = new Map();
  const guess = type === undefined ? [] : [searchManifestPath(namespace, type)];
  const children = type === undefined ? { under: `${SEARCH_ROOT}${namespace}`, names: FIRST_FILES } : undefined;
  const got = await readAt(store, [SEARCH_DECLARATION_KEY, ...guess], pinned, cost, files, children);
  if (got === null) return { version: null, types: [], files };
  const declared = parseSearchDeclaration(files.get(SEARCH_DECLARATION_KEY) ?? undefined).search;
  const types = declared.filter((t) => t.namespace === namespace && (type === undefined || t.type === type));
  if (types.length === 0) throw notDeclared(namespace, type);
  const manifests = types.map((t) => searchManifestPath(t.namespace, t.type)).filter((p) => !files.has(p));
  if (manifests.length > 0) await readAt(store, manifests, got, cost, files);
  return { version: got, types, files };
}

function notDeclared(namespace: string, type: string | undefined): InvalidConfig {
  const what = type === undefined ? `no type of namespace ${namespace} has` : `${namespace}/${type} has no`;
  return new InvalidConfig(
    type === undefined ? 'namespace' : 'type',
    `${what} search declared; declare it first: docs.declareSearch([{ namespace: '${namespace}', type: '${type ?? '<type>'}', fields: ['data.title', 'data.body'] }]) (CLI: docdb doc search-index)`,
    { namespace, ...(type !== undefined ? { type } : {}) },
  );
}

/** Read `keys` at `version` (the tip when undefined) into `files`, adding the cost; the version read. */
async function readAt(
  store: RefStore,
  keys: readonly string[],
  version: VersionId | undefined,
  cost: Cost,
  files: Files,
  childFiles?: ReadManyOptions['childFiles'],
): Promise<VersionId | null> {
  let at: VersionId | null = version ?? null;
  const onMeta = (m: OperationMeta) => {
    cost.meta = addCost(cost.meta, m);
  };
  // Every round of a search waits on the one before: at the tip, the store reads the tip WITH the keys if it can.
  const options = {
    ...(version ? { version } : { fewestRounds: true, ...(childFiles ? { childFiles } : {}) }),
    onMeta,
  };
  for await (const item of readManyFrom(store, keys, options)) {
    files.set(item.key, item.value);
    at = item.version;
  }
  return at;
}

/**
 * Run pure steps (one per type) that may throw `NeedFiles` until every one answers: each round runs EVERY step
 * still unanswered and reads what all of them need in one bulk read, so types searched together cost the
 * rounds of one.
 */
async function untilAnswered<R>(
  store: RefStore,
  at: { version: VersionId; files: Files; cost: Cost },
  steps: readonly ((read: SearchRead) => R)[],
): Promise<R[]> {
  const { version, files, cost } = at;
  const answers = new Map<number, R>();
  for (let round = 0; ; round++) {
    const wanted = new Set<string>();
    steps.forEach((step, i) => {
      if (answers.has(i)) return;
      const answer = tryStep(step, files, wanted);
      if (answer !== NEEDS_FILES) answers.set(i, answer);
    });
    if (answers.size === steps.length) return steps.map((_, i) => answers.get(i) as R);
    if (wanted.size === 0 || round >= MAX_ROUNDS) {
      throw new InvalidResponse(
        'the search files did not settle (a step kept asking for files); rebuild the search (docs.rebuildSearch; CLI: docdb doc search-index --rebuild)',
        {},
      );
    }
    await readAt(store, [...wanted], version, cost, files);
  }
}

/** What {@link tryStep} answers for a step that needs files it has not got (added to `wanted`). */
const NEEDS_FILES: unique symbol = Symbol('needs files');

/** One step on the files read so far: its answer, or {@link NEEDS_FILES} with the paths it asked for in `wanted`. */
function tryStep<R>(step: (read: SearchRead) => R, files: Files, wanted: Set<string>): R | typeof NEEDS_FILES {
  try {
    return step((p) => {
      if (files.has(p)) return files.get(p) ?? null;
      wanted.add(p);
      return undefined;
    });
  } catch (e) {
    if (!(e instanceof NeedFiles)) throw e;
    for (const p of e.paths) if (!files.has(p)) wanted.add(p);
    return NEEDS_FILES;
  }
}

/** Every type's hits, best first; equal scores by type (and, once the ids are known, by id: {@link pageOf}). */
function merged(types: readonly TypeSearch[], ranked: readonly { hits: RankedHit[] }[]): TypedHit[] {
  const all: TypedHit[] = [];
  types.forEach((t, i) => {
    for (const h of ranked[i]!.hits) all.push({ ...h, t });
  });
  return all.sort((a, b) => b.score - a.score || byCodeUnit(a.t.type, b.t.type));
}

/**
 * The hits whose order decides the page: those of the page and every hit tied in score with its first or
 * last one (a tie is ordered by type, then id — and the ids are only known once their table parts are read).
 * `from` is the position of the first of them in the whole ranking.
 */
function tiedSpan(all: readonly TypedHit[], offset: number, limit: number): { from: number; hits: TypedHit[] } {
  const window = all.slice(offset, offset + limit);
  if (window.length === 0) return { from: offset, hits: [] };
  const high = window[0]!.score;
  const low = window[window.length - 1]!.score;
  const from = all.findIndex((h) => h.score <= high);
  const to = all.findLastIndex((h) => h.score >= low);
  return { from, hits: all.slice(from, to + 1) };
}

function ordinalsOf(hits: readonly TypedHit[], t: TypeSearch): number[] {
  return hits.filter((h) => h.t === t).map((h) => h.ordinal);
}

/** The page: the tied span ordered by (score, type, id) with each hit's id, cut to `offset`..`offset + limit`. */
function pageOf(
  span: { from: number; hits: TypedHit[] },
  offset: number,
  limit: number,
  types: readonly TypeSearch[],
  ids: readonly Map<number, string>[],
): NamedHit[] {
  const named = span.hits.map((h) => {
    const id = ids[types.indexOf(h.t)]!.get(h.ordinal);
    if (id === undefined) throw damaged(h.t, `has no id for ordinal ${h.ordinal}`, {});
    return { ...h, id };
  });
  named.sort((a, b) => b.score - a.score || byCodeUnit(a.t.type, b.t.type) || byCodeUnit(a.id, b.id));
  return named.slice(offset - span.from, offset - span.from + limit);
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The page's documents in one bulk read, each checked to hold the words it was found for. */
async function readHits<T>(
  store: RefStore,
  page: readonly NamedHit[],
  version: VersionId,
  cost: Cost,
): Promise<SearchHit<T>[]> {
  const keyOf = (h: NamedHit) => deriveKey({ namespace: h.t.namespace, doc_type: h.t.type, id: h.id });
  const files: Files = new Map();
  await readAt(store, page.map(keyOf), version, cost, files);
  return page.map((h) => {
    const bytes = files.get(keyOf(h));
    if (!bytes) throw damaged(h.t, `names ${JSON.stringify(h.id)}, which the section does not hold`, { id: h.id });
    const document = decodeEnvelope<T>(bytes, version);
    // The blob at the key must be that document (as every read checks): a raw write may have put another there.
    if (!envelopeMatches(document, { namespace: h.t.namespace, doc_type: h.t.type, id: h.id })) {
      const other = `${document.namespace}/${document.type}/${document.id}`;
      throw damaged(h.t, `found ${JSON.stringify(h.id)}, whose key holds another document (${other})`, { id: h.id });
    }
    if (!documentMatches(h.t, { id: h.id, data: document.data }, h.terms)) {
      throw damaged(h.t, `found ${JSON.stringify(h.id)}, whose document does not hold the words it was found for`, {
        id: h.id,
      });
    }
    const { namespace, type } = h.t;
    return { namespace, type, id: h.id, score: h.score, fields: h.fields, document };
  });
}

function damaged(t: TypeSearch, why: string, data: Record<string, unknown>): InvalidResponse {
  const key = searchManifestPath(t.namespace, t.type).replace(/manifest\.json$/, '');
  return new InvalidResponse(
    `the search of ${t.namespace}/${t.type} ${why}; rebuild it: docs.rebuildSearch([{ namespace: '${t.namespace}', type: '${t.type}' }]) (CLI: docdb doc search-index --namespace ${t.namespace} --type ${t.type} --rebuild)`,
    { key, ...data },
  );
}
