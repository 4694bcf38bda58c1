/**
 * `docdb doc search`: the documents of a namespace (or one type) whose text holds the words, ranked by
 * BM25 from the section's search index (DocumentStore.search; docs/search.md). The words are checked by
 * the engine's own parser before any request, so a query the library would refuse is a usage error here.
 */
import { InvalidConfig } from '../../core/errors.js';
import type { DocumentSearchQuery, DocumentSearchResult } from '../../document/document-store.js';
import { parseSearchText } from '../../document/search/index.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../document/search-read.js';
import { checkUsage, type FlagValues, positiveInt, requiredFlags, str, versionFlag } from '../args.js';
import type { CliCommand, CommandContext } from '../command.js';
import { EXIT, NotFoundResult, UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import { IDENTITY_FLAGS, missingSection, resolveFlag, STORE_FLAGS, withDocuments } from './doc-common.js';

export const search: CliCommand = {
  name: 'doc search',
  summary: "find documents by the words in their text, ranked, from the section's search index",
  usage: `usage: docdb doc search WORDS... --namespace NS [--type TYPE] [--limit N] [--cursor C] [--version SHA] [store flags] [--json]

Finds the documents of NS (every type with a search index declared, or only TYPE) whose searchable
fields hold every word, best first (BM25). Words are matched case-insensitively with diacritics folded;
the last word also matches as a prefix ("data" finds "database"), and a word of 5 or more characters
also matches at one typo. WORDS may be one quoted argument or several (at most 32 words in all).
Declare a type's searchable fields first: docdb doc search-index --namespace NS --type TYPE --fields
data.title,data.body.
Output: a table on stdout (score, type, id, matched fields; tab-separated), and on stderr "# N of TOTAL
hit(s) at VERSION, N request(s)" and the next page's cursor (--cursor; --limit: 1 to ${MAX_SEARCH_LIMIT}, default ${DEFAULT_SEARCH_LIMIT}).
With --json: { hits: [{ namespace, type, id, score, fields, document }], total, version, nextCursor,
requests, rateLimit }. Exit code 3 when the section does not exist.`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: { type: 'string', description: 'only this type (default: every type of NS with a search index)' },
    limit: {
      type: 'string',
      description: `at most N hits per page (1 to ${MAX_SEARCH_LIMIT}, default ${DEFAULT_SEARCH_LIMIT})`,
    },
    cursor: { type: 'string', description: 'next page: the cursor printed by the previous page' },
    version: { type: 'string', description: 'search at this commit of the section (SHA, or its first 4+ characters)' },
    ...STORE_FLAGS,
  },
  maxPositionals: 32,
  async run(ctx) {
    const [text, namespace, limit, given] = await checkUsage(
      () => wordsFrom(ctx.positionals),
      () => requiredFlags(ctx.values, ['namespace'], 'the namespace to search')[0] as string,
      () => limitFrom(ctx.values),
      () => versionFlag(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const type = str(ctx.values, 'type');
    const cursor = str(ctx.values, 'cursor');
    const r = await withDocuments(ctx, async (docs, where) => {
      const version = await resolveFlag(docs, 'version', given);
      const options: DocumentSearchQuery = {
        namespace,
        ...(type !== undefined ? { type } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
        ...(version ? { version } : {}),
      };
      const result = await docs.search(text, options).catch((e) => {
        throw searchErrorInCliTerms(e, namespace, type);
      });
      if (result.version === null) {
        throw (await missingSection(docs, where)) ?? new NotFoundResult(`nothing to search in ${where}`);
      }
      return result;
    });
    print(ctx, r);
    return EXIT.ok;
  },
};

/**
 * The words: every positional joined by a space (`doc search "open source"` and `doc search open source`
 * ask the same), checked by the engine's parser (none, or more than 32, is a usage error).
 */
function wordsFrom(positionals: readonly string[]): string {
  const text = positionals.join(' ');
  try {
    parseSearchText(text);
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    throw new UsageError(`WORDS: ${e.message} (e.g. docdb doc search "open source" --namespace github)`, 'WORDS');
  }
  return text;
}

/** `--limit`: a whole number from 1 to 100 (the library's bound on a page of hits). */
function limitFrom(values: FlagValues): number | undefined {
  const limit = positiveInt(values, 'limit');
  if (limit !== undefined && limit > MAX_SEARCH_LIMIT) {
    throw new UsageError(`--limit must be from 1 to ${MAX_SEARCH_LIMIT}, got ${limit}`, '--limit');
  }
  return limit;
}

/** Which flag a library InvalidConfig is about, by the option it names. */
const SEARCH_FLAGS: [RegExp, string][] = [
  [/^type/, '--type'],
  [/^namespace/, '--namespace'],
  [/^cursor/, '--cursor'],
  [/^limit/, '--limit'],
  [/^(q|text)$/, 'WORDS'],
];

/**
 * The library's refusals (a type with no search index, a bad cursor) as usage errors naming the flag; a
 * missing index says how to declare one with this CLI rather than with the library's method.
 */
function searchErrorInCliTerms(e: unknown, namespace: string, type: string | undefined): unknown {
  if (!(e instanceof InvalidConfig)) return e;
  const field = String(e.data.field ?? '');
  const flag = SEARCH_FLAGS.find(([re]) => re.test(field))?.[1];
  if (flag === undefined) return e;
  const declare = `declare one with docdb doc search-index --namespace ${namespace} --type ${type ?? 'TYPE'} --fields data.title,data.body`;
  const message = /declar/i.test(e.message)
    ? `${e.message.replace(/[;:]\s*declare[^;]*$/i, '')}; ${declare}`
    : e.message;
  return new UsageError(`${flag}: ${message}`, flag);
}

/** A matched field list for the table: `data.title,data.body`. */
const fieldsCell = (fields: readonly string[]) => fields.join(',');

/** Scores with four decimals: enough to see the order, short enough for a table. */
const scoreCell = (score: number) => score.toFixed(4);

function print(ctx: CommandContext, r: DocumentSearchResult): void {
  if (ctx.json) {
    const { hits, total, version, nextCursor, requests, rateLimit } = r;
    ctx.io.stdout(`${JSON.stringify({ hits, total, version, nextCursor, requests, rateLimit })}\n`);
    return;
  }
  const lines = [
    ['score', 'type', 'id', 'fields'],
    ...r.hits.map((h) => [scoreCell(h.score), h.type, h.id, fieldsCell(h.fields)]),
  ];
  ctx.io.stdout(`${lines.map((l) => l.join('\t')).join('\n')}\n`);
  // Status lines go to stderr, so `docdb doc search … | cut -f3` pipes only the table.
  ctx.io.stderr(`# ${r.hits.length} of ${r.total} hit(s) at ${r.version}, ${r.requests ?? 0} request(s)\n`);
  if (r.nextCursor) ctx.io.stderr(`# more: --cursor ${r.nextCursor}\n`);
}
