/**
 * `docdb doc export`: every document of the section (or of one namespace/type) with its data, read in bulk
 * (DocumentStore.stream — on the GitHub API the section's archive, a handful of requests), as JSON Lines on
 * stdout or in `--out FILE`, or one file per document under `--dir DIR`. Files are written under a temporary
 * name and renamed at the end, so a failed export leaves nothing half-written.
 */
import type { DocumentListEntry } from '../../document/index.js';
import { ENVELOPE_COLUMNS, formatItems, TEXT_FORMATS, type TextFormat } from '../../export/formats.js';
import { ExportTargetError, writeDirectory, writeFormatted } from '../../export/write-export.js';
import { str, versionFlag } from '../args.js';
import type { CliCommand, CommandContext } from '../command.js';
import { EXIT, type NotFoundResult, printResult, UsageError } from '../io.js';
import { IDENTITY_FLAGS, missingSection, resolveFlag, STORE_FLAGS, withDocuments } from './doc-common.js';
import { PARQUET_USAGE, parquetExport } from './doc-export-parquet.js';
import { SQLITE_USAGE, sqliteExport } from './doc-export-sqlite.js';

/** Progress every this many documents (stderr, terminals only). */
const PROGRESS_EVERY = 1000;

export const exportCommand: CliCommand = {
  name: 'doc export',
  summary: 'write every document (with data) as JSON Lines or one file per document',
  usage: `usage: docdb doc export [--namespace NS [--type TYPE]] [--version SHA] [--format jsonl|json|csv [--fields COLUMNS]] [--out FILE | --dir DIR [--force]] [--quiet] [store flags] [--json]
       docdb doc export --format sqlite --out FILE [--history] [--namespace NS [--type TYPE]] [--version SHA] [--quiet] [store flags] [--json]
       docdb doc export --format parquet --out DIR [--namespace NS [--type TYPE]] [--version SHA] [--quiet] [store flags] [--json]

Reads every document of the section (or of one namespace / type) at one version, in bulk (on the GitHub API:
the section's archive — a handful of requests at any size), and writes each envelope
{ namespace, type, id, version, data }:
  (default)    as JSON Lines on stdout, one envelope per line;
  --out FILE   in FILE instead of stdout;
  --format     jsonl (default), json (one array) or csv: a header, then one record per document (RFC 4180
               quoting, CRLF line ends); --fields picks the columns, comma-separated paths into the envelope
               (default namespace,type,id,version,data): a string cell is the string, anything else its JSON
               (on stdout records end with a newline, in --out FILE with CRLF);
${SQLITE_USAGE}
${PARQUET_USAGE}
  --dir DIR    as DIR/<namespace>/<type>/<id>.json, one file per document. DIR must not exist or be empty,
               unless --force (then what it held when the export started is replaced).
Files are written under a temporary name and renamed when complete: a failed export leaves nothing behind.
--dir never removes what the export did not create: if a file appears in DIR during the export (or, with
--force, one of its files changes), the export fails (exit 1, ExportChanged) and DIR is left as it is.
Symbolic links in FILE or DIR are followed once, at the start (the real path is written and printed); a
link swapped in during the export does not redirect the write. Progress goes to stderr on a terminal (not
with --quiet). With --json (needs --out or --dir): { version, documents, path } on stdout.`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    version: { type: 'string', description: 'export at this commit of the section (SHA, or its first 4+ characters)' },
    format: {
      type: 'string',
      description: 'jsonl (default), json, csv, sqlite (needs --out FILE) or parquet (needs --out DIR)',
    },
    fields: { type: 'string', description: 'with --format csv: the columns, e.g. id,data.stars,data.owner.login' },
    out: {
      type: 'string',
      description: 'write to FILE instead of stdout (--format sqlite: the database file; parquet: the directory)',
    },
    history: { type: 'boolean', description: 'with --format sqlite: add commits and one row per document version' },
    dir: { type: 'string', description: 'write one file per document under DIR' },
    force: { type: 'boolean', description: 'with --dir: replace a directory that is not empty' },
    quiet: { type: 'boolean', description: 'no progress on stderr' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    if (str(ctx.values, 'format') === 'sqlite')
      return sqliteExport(ctx, progressPrinter(ctx, ctx.values.quiet === true));
    if (str(ctx.values, 'format') === 'parquet')
      return parquetExport(ctx, progressPrinter(ctx, ctx.values.quiet === true));
    const opts = exportOptions(ctx);
    const progress = progressPrinter(ctx, opts.quiet);
    const { version, written } = await withDocuments(ctx, async (docs, where) => {
      const version = (await resolveFlag(docs, 'version', opts.version)) ?? (await docs.head());
      // No tip: the section does not exist (a mistyped --section), not an empty export; nothing is written.
      if (version === null) throw (await missingSection(docs, where)) as NotFoundResult;
      const entries = docs.stream({ ...opts.filter, version, withData: true });
      return { version, written: await write(ctx, opts, entries, progress) };
    });
    progress.done(written.count);
    const { path, count: documents } = written;
    if (path !== null) {
      printResult(ctx.io, ctx.json, { version, documents, path }, () => `${documents} document(s) → ${path}`);
    }
    return EXIT.ok;
  },
};

interface ExportOptions {
  format: TextFormat;
  columns: readonly string[] | undefined;
  filter: { namespace?: string; type?: string };
  version: string | undefined;
  out: string | undefined;
  dir: string | undefined;
  force: boolean;
  quiet: boolean;
}

/** The first segment a CSV column may start with: the envelope's own fields. */
const ENVELOPE_ROOTS = new Set<string>(ENVELOPE_COLUMNS);

/**
 * `--format` (default jsonl) and `--fields` (CSV columns: comma-separated paths into the envelope).
 *
 * @example
 * formatFlags({ format: 'csv', fields: 'id,data.stars' }); // { format: 'csv', columns: ['id', 'data.stars'] }
 */
export function formatFlags(values: CommandContext['values']): { format: TextFormat; columns?: string[] } {
  const format = (str(values, 'format') ?? 'jsonl') as TextFormat;
  if (!TEXT_FORMATS.includes(format)) {
    throw new UsageError(
      `--format ${JSON.stringify(format)} is not a format: use ${[...TEXT_FORMATS, 'sqlite', 'parquet'].join(', ')}`,
      '--format',
    );
  }
  const fields = str(values, 'fields');
  if (fields === undefined) return { format };
  if (format !== 'csv') throw new UsageError('--fields picks CSV columns: it needs --format csv', '--fields');
  const columns = fields.split(',').map((c) => c.trim());
  const bad = columns.find((c) => !ENVELOPE_ROOTS.has(c.split('.')[0] as string) || c.split('.').some((s) => s === ''));
  if (bad !== undefined) {
    throw new UsageError(
      `--fields ${JSON.stringify(bad)} is not a column: give comma-separated paths into the envelope, each starting with ${ENVELOPE_COLUMNS.join(', ')} (e.g. id,data.stars)`,
      '--fields',
    );
  }
  return { format, columns };
}

function exportOptions(ctx: CommandContext): ExportOptions {
  const { format, columns } = formatFlags(ctx.values);
  if (ctx.values.history === true) throw new UsageError('--history applies to --format sqlite only', '--history');
  const namespace = str(ctx.values, 'namespace');
  const type = str(ctx.values, 'type');
  if (type !== undefined && namespace === undefined) throw new UsageError('--type needs --namespace', '--type');
  const out = str(ctx.values, 'out');
  const dir = str(ctx.values, 'dir');
  if (out !== undefined && dir !== undefined) throw new UsageError('give --out or --dir, not both', '--out');
  if (ctx.values.force === true && dir === undefined) throw new UsageError('--force applies to --dir only', '--force');
  if (dir !== undefined && str(ctx.values, 'format') !== undefined) {
    throw new UsageError('--format applies to stdout and --out (--dir writes one JSON file per document)', '--format');
  }
  if (ctx.json && out === undefined && dir === undefined) {
    throw new UsageError('--json needs --out or --dir (the documents themselves are JSON Lines on stdout)', '--json');
  }
  return {
    format,
    columns,
    filter: { ...(namespace !== undefined ? { namespace } : {}), ...(type !== undefined ? { type } : {}) },
    version: versionFlag(ctx.values),
    out,
    dir,
    force: ctx.values.force === true,
    quiet: ctx.values.quiet === true,
  };
}

async function write(
  ctx: CommandContext,
  opts: ExportOptions,
  entries: AsyncIterable<DocumentListEntry>,
  progress: { tick(n: number): void },
): Promise<{ count: number; path: string | null }> {
  try {
    if (opts.out !== undefined) {
      const how = { format: opts.format, ...(opts.columns ? { columns: opts.columns } : {}) };
      return await writeFormatted(opts.out, entries, how, (n) => progress.tick(n));
    }
    if (opts.dir !== undefined) return await writeDirectory(opts.dir, entries, opts.force, (n) => progress.tick(n));
  } catch (e) {
    if (e instanceof ExportTargetError) throw new UsageError(e.message, opts.dir !== undefined ? '--dir' : '--out');
    throw e;
  }
  let n = 0;
  const documents = (async function* () {
    for await (const e of entries) if (e.document) yield e.document;
  })();
  // stdout is made inert (a `\r` would show as `\u000D`): CSV records end with a plain newline there.
  const how = { ...(opts.columns ? { columns: opts.columns } : {}), eol: '\n' as const };
  for await (const chunk of formatItems(documents, opts.format, { ...how, onItem: () => progress.tick(++n) })) {
    ctx.io.stdout(chunk);
  }
  return { count: n, path: null };
}

/** "exported N…" on stderr every {@link PROGRESS_EVERY} documents — only on a terminal, never with --quiet. */
function progressPrinter(ctx: CommandContext, quiet: boolean) {
  const show = !quiet && ctx.io.stderrIsTTY === true;
  const redraw = ctx.io.progress ?? ((line: string) => ctx.io.stderr(line));
  return {
    tick(n: number) {
      if (show && n % PROGRESS_EVERY === 0) redraw(`exported ${n} documents…`);
    },
    done(n: number) {
      if (show) redraw(`exported ${n} documents\n`);
    },
  };
}
