/**
 * `docdb doc query`: the documents of one namespace/type that match `--where` clauses, through the
 * section's index when one covers the fields (DocumentStore.query; docs/indexes.md "Querying"). The
 * clauses use the text syntax the Action's `where` input uses (document/query-text.ts).
 */
import { InvalidConfig } from '../../core/errors.js';
import type { DocumentQuery, DocumentQueryResult } from '../../document/document-store.js';
import { validateQuery } from '../../document/indexes/query.js';
import { parseOrderBy, parseWhere, WHERE_FORMS } from '../../document/query-text.js';
import { formatItems, TEXT_FORMATS, type TextFormat } from '../../export/formats.js';
import { checkUsage, type FlagValues, positiveInt, requiredFlags, str, strs, versionFlag } from '../args.js';
import type { CliCommand, CommandContext } from '../command.js';
import { CLI_INPUT_NAMES } from '../input-flags.js';
import { EXIT, NotFoundResult, UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import { IDENTITY_FLAGS, missingSection, resolveFlag, STORE_FLAGS, withDocuments, withTypeName } from './doc-common.js';

type Row = DocumentQueryResult<unknown>['rows'][number];

export const query: CliCommand = {
  name: 'doc query',
  summary: 'find the documents of one type by field values (answered from the index when one is declared)',
  usage: `usage: docdb doc query (NS/TYPE | --namespace NS --type TYPE) [--where CLAUSE]... [--order-by [-]FIELD] [--limit N] [--cursor C] [--fields F1,F2] [--version SHA] [--require-index] [--format jsonl|json|csv] [store flags] [--json]

Finds the documents of NS/TYPE (one word, as doc get takes a document, or the two flags) for which
every --where clause holds. A clause is one of
  ${WHERE_FORMS}.
A value is read as JSON when it parses as JSON (10 is a number, true a boolean, "10" the string), else as
text; types never mix (data.stars>=10 never matches the string "12"). --order-by sorts by a field ("-" in
front: descending; default: by id). When the section declares an index for NS/TYPE (docdb doc index) that
covers every field named, the index answers in a few requests; otherwise docdb reads the type's documents
and says so — with --require-index that is an error (exit 2) instead.
--fields (comma-separated declared fields) answers from the index alone; without it the matching documents
are read too (--format jsonl/json then print them).
Output: a table on stdout ("id", then one column per field; tab-separated), and on stderr "# N row(s) at
VERSION, answered by the index (N requests)" and the next page's cursor (--cursor). --format jsonl, json or
csv print the rows (or, without --fields, the documents) as data. With --json: { rows, documents, version,
nextCursor, answeredBy, fallbackReason, requests, rateLimit }. Exit code 3 when the section does not exist.`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    where: { type: 'string', multiple: true, description: 'a clause such as data.stars>=10 (repeatable: all hold)' },
    'order-by': { type: 'string', description: 'sort by this field, "-" in front for descending, e.g. -data.stars' },
    limit: { type: 'string', description: 'at most N rows per page (1 to 10000)' },
    cursor: { type: 'string', description: 'next page: the cursor printed by the previous page' },
    fields: { type: 'string', description: 'comma-separated fields to return, from the index alone' },
    version: { type: 'string', description: 'query at this commit of the section (SHA, or its first 4+ characters)' },
    'require-index': { type: 'boolean', description: 'fail (exit 2) rather than read the documents' },
    format: { type: 'string', description: 'jsonl, json or csv: print the result as data' },
    ...STORE_FLAGS,
  },
  maxPositionals: 1,
  async run(ctx) {
    let format: TextFormat | undefined;
    let given: string | undefined;
    const q = await queryFrom(withTypeName(ctx.values, ctx.positionals), [
      () => {
        format = formatFrom(ctx);
      },
      () => {
        given = versionFlag(ctx.values);
      },
      () => checkStoreFlags(ctx.values, ctx.io.env),
    ]);
    const r = await withDocuments(ctx, async (docs, where) => {
      const version = await resolveFlag(docs, 'version', given);
      const result = await docs.query({ ...q, ...(version ? { version } : {}) }).catch((e) => {
        throw requireIndexInCliTerms(e, q);
      });
      if (result.version === null) {
        throw (await missingSection(docs, where)) ?? new NotFoundResult(`nothing to query in ${where}`);
      }
      return result;
    });
    await print(ctx, q, format, r);
    return EXIT.ok;
  },
};

/**
 * The library's "no index answers this" (InvalidConfig on `requireIndex`) in the CLI's terms: the flag
 * and the command that declares an index. Any other error as it is.
 */
function requireIndexInCliTerms(e: unknown, q: DocumentQuery): unknown {
  if (!(e instanceof InvalidConfig) || e.data.field !== 'requireIndex') return e;
  const reason = e.message.replace(/; declare it \(declareIndexes\) or drop requireIndex$/, '');
  return new UsageError(
    `--require-index: ${reason}; declare the fields with docdb doc index --namespace ${q.namespace} --type ${q.type} --field FIELD, or leave out --require-index`,
    '--require-index',
  );
}

/** Which flag a query validation error is about, by the query field it names. */
const QUERY_FLAGS: [RegExp, string][] = [
  [/^where/, '--where'],
  [/^orderBy/, '--order-by'],
  [/^limit/, '--limit'],
  [/^cursor/, '--cursor'],
  [/^fields/, '--fields'],
  [/^namespace/, '--namespace'],
  [/^type/, '--type'],
];

/** An InvalidConfig from the query-text parser as a usage error naming `flag`. */
function asUsage<T>(flag: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof InvalidConfig) throw new UsageError(e.message, flag);
    throw e;
  }
}

/**
 * The query the flags ask, every flag checked on its own so that one usage error names every problem
 * (checkUsage); then the library's validator on the whole query, before any I/O.
 *
 * @example
 * const q = await queryFrom({ namespace: 'github', type: 'repo', where: ['data.stars>=10'] });
 */
export async function queryFrom(values: FlagValues, more: (() => unknown)[] = []): Promise<DocumentQuery> {
  const [names, where, orderBy, limit] = await checkUsage(
    () =>
      requiredFlags(
        values,
        ['namespace', 'type'],
        'the type to query; or name it in one word: NS/TYPE, e.g. github/repo',
      ),
    () => asUsage('--where', () => strs(values, 'where').map((w) => parseWhere(w, CLI_INPUT_NAMES))),
    () => {
      const text = str(values, 'order-by');
      return text === undefined ? undefined : asUsage('--order-by', () => parseOrderBy(text, CLI_INPUT_NAMES));
    },
    () => positiveInt(values, 'limit'),
    ...more,
  );
  const cursor = str(values, 'cursor');
  const fields = str(values, 'fields')
    ?.split(',')
    .map((f) => f.trim());
  const q: DocumentQuery = {
    namespace: names[0] as string,
    type: names[1] as string,
    ...(where.length > 0 ? { where } : {}),
    ...(orderBy ? { orderBy } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
    ...(fields ? { fields } : {}),
    ...(values['require-index'] === true ? { requireIndex: true } : {}),
  };
  try {
    const { requireIndex: _, ...indexQuery } = q;
    validateQuery(indexQuery);
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    const field = String(e.data.field ?? '');
    const flag = QUERY_FLAGS.find(([re]) => re.test(field))?.[1];
    throw new UsageError(`${flag ?? '--where'}: ${e.message}`, flag);
  }
  return q;
}

/** `--format` for query results; not with --json (that prints the whole result as one JSON value). */
function formatFrom(ctx: CommandContext): TextFormat | undefined {
  const format = str(ctx.values, 'format');
  if (format === undefined) return undefined;
  if (!TEXT_FORMATS.includes(format as TextFormat)) {
    throw new UsageError(
      `--format ${JSON.stringify(format)} is not a format: use ${TEXT_FORMATS.join(', ')}`,
      '--format',
    );
  }
  if (ctx.json) throw new UsageError('give --format or --json, not both (--json prints the whole result)', '--format');
  return format as TextFormat;
}

/** The value columns of the rows: the fields asked for, else every field a row holds, in order seen. */
function columnsOf(q: DocumentQuery, rows: readonly Row[]): string[] {
  // `id` is the table's first column already.
  if (q.fields) return q.fields.filter((f) => f !== 'id');
  const seen = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row.values)) seen.add(k);
  return [...seen].filter((f) => f !== 'id');
}

/** One table cell: a string as it is (JSON when it holds a tab or a line break), absent empty, else JSON. */
function cell(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string' && !/[\t\r\n]/.test(value)) return value;
  return JSON.stringify(value);
}

async function print(
  ctx: CommandContext,
  q: DocumentQuery,
  format: TextFormat | undefined,
  r: DocumentQueryResult<unknown>,
): Promise<void> {
  if (ctx.json) {
    const { rows, documents, version, nextCursor, answeredBy, fallbackReason, requests, rateLimit } = r;
    const out = { rows, documents, version, nextCursor, answeredBy, fallbackReason, requests, rateLimit };
    ctx.io.stdout(`${JSON.stringify(out)}\n`);
    return;
  }
  const columns = columnsOf(q, r.rows);
  if (format === 'csv') {
    const pick = (row: Row, c: string) => (c === 'id' ? row.id : row.values[c]);
    for await (const chunk of formatItems(r.rows, 'csv', { columns: ['id', ...columns], pick, eol: '\n' })) {
      ctx.io.stdout(chunk);
    }
  } else if (format !== undefined) {
    // Without --fields the documents were read: they are what a pipe wants, as `doc export` prints them.
    const items: readonly unknown[] = r.documents ?? r.rows;
    for await (const chunk of formatItems(items, format)) ctx.io.stdout(chunk);
  } else {
    const lines = [['id', ...columns], ...r.rows.map((row) => [row.id, ...columns.map((c) => cell(row.values[c]))])];
    ctx.io.stdout(`${lines.map((l) => l.join('\t')).join('\n')}\n`);
  }
  // Status lines go to stderr, so `docdb doc query | …` pipes only the result.
  const by =
    r.answeredBy === 'index'
      ? 'answered by the index'
      : `answered by reading the documents (${r.fallbackReason ?? 'no index covers the query'}; declare one with docdb doc index)`;
  ctx.io.stderr(`# ${r.rows.length} row(s) at ${r.version}, ${by}, ${r.requests ?? 0} request(s)\n`);
  if (r.nextCursor) ctx.io.stderr(`# more: --cursor ${r.nextCursor}\n`);
}
