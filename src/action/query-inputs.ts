/**
 * The inputs of `mode: query` (action.yml): `where` (one clause per line, the text syntax the CLI's
 * --where takes: document/query-text.ts), `order-by`, `limit`, `fields`, `require-index` — or `search`
 * (words, answered from the section's search index: docs/search.md) with `limit`. Read and checked with the
 * other inputs, before any request.
 */
import { InvalidConfig } from '../core/errors.js';
import type { InputNames } from '../core/input-names.js';
import type { WhereClause } from '../document/indexes/query.js';
import { MAX_LIMIT } from '../document/indexes/query.js';
import { parseOrderBy, parseWhere } from '../document/query-text.js';
import { parseSearchText } from '../document/search/index.js';
import { MAX_SEARCH_LIMIT } from '../document/search-read.js';

export interface QueryInputs {
  where: WhereClause[];
  orderBy?: { field: string; direction: 'asc' | 'desc' };
  limit?: number;
  /** The fields to return, answered from the index alone (then no document is read). */
  fields?: string[];
  requireIndex: boolean;
  /** `search`: the words to find, ranked by the section's search index (then no clause or index option applies). */
  search?: string;
}

/** The inputs only `mode: query` reads (a runner passes each one, empty or "false" when not set). */
export const QUERY_INPUTS = ['where', 'order-by', 'limit', 'fields', 'require-index', 'search'] as const;

/** The query inputs a `search` leaves no meaning to: it ranks by the words, from the search index. */
const NOT_WITH_SEARCH = ['where', 'order-by', 'fields', 'require-index'] as const;

/** `a, b` or one per line → the list (empty entries dropped). */
const list = (text: string) =>
  text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The query inputs: for `mode: query` the parsed clauses and options; for any other mode, undefined —
 * and a query input that is set there is `InvalidConfig` naming it (it would be silently ignored).
 *
 * @example
 * readQueryInputs((n) => ({ where: 'data.stars>=10\ndata.archived=false' })[n] ?? '', 'query', ACTION_INPUT_NAMES);
 * // { where: [{ field: 'data.stars', op: '>=', value: 10 }, { field: 'data.archived', op: '=', value: false }], requireIndex: false }
 */
export function readQueryInputs(
  get: (name: string) => string,
  mode: string,
  names: InputNames,
): QueryInputs | undefined {
  const bad = (field: string, message: string, allowed?: string): never => {
    throw new InvalidConfig(field, `${names.label(field)}: ${message}`, allowed ? { allowed } : {});
  };
  if (mode !== 'query') {
    const set = QUERY_INPUTS.find((n) => get(n) !== '' && !(n === 'require-index' && get(n) === 'false'));
    if (set !== undefined) bad(set, `only applies to mode: query (mode is ${mode})`);
    return undefined;
  }
  const search = get('search');
  if (search !== '') return readSearchInputs(get, search, bad);
  const where = get('where')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => parseWhere(l, names));
  const orderText = get('order-by');
  const limitText = get('limit');
  if (limitText !== '' && (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_LIMIT)) {
    bad('limit', `${JSON.stringify(limitText)} must be a whole number from 1 to ${MAX_LIMIT}`, `1-${MAX_LIMIT}`);
  }
  const requireText = get('require-index') || 'false';
  if (requireText !== 'true' && requireText !== 'false') {
    bad('require-index', `${JSON.stringify(requireText)} must be true or false`, 'true, false');
  }
  const fields = list(get('fields'));
  return {
    where,
    ...(orderText ? { orderBy: parseOrderBy(orderText, names) } : {}),
    ...(limitText ? { limit: Number(limitText) } : {}),
    ...(fields.length > 0 ? { fields } : {}),
    requireIndex: requireText === 'true',
  };
}

/**
 * `mode: query` with `search`: the words (checked by the search engine's own parser, so a query it would
 * refuse fails here, before any request) and `limit` (1–100); a clause or index option is refused naming it.
 */
function readSearchInputs(
  get: (name: string) => string,
  search: string,
  bad: (field: string, message: string, allowed?: string) => never,
): QueryInputs {
  const set = NOT_WITH_SEARCH.find((n) => get(n) !== '' && !(n === 'require-index' && get(n) === 'false'));
  if (set !== undefined) {
    bad(set, 'does not apply with search (the words rank the documents, from the search index)');
  }
  try {
    parseSearchText(search);
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    bad('search', e.message, 'from 1 to 32 words');
  }
  const limitText = get('limit');
  if (limitText !== '' && (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_SEARCH_LIMIT)) {
    bad(
      'limit',
      `${JSON.stringify(limitText)} must be a whole number from 1 to ${MAX_SEARCH_LIMIT} with search`,
      `1-${MAX_SEARCH_LIMIT}`,
    );
  }
  return { where: [], requireIndex: false, search, ...(limitText ? { limit: Number(limitText) } : {}) };
}
