/**
 * `docdb doc export`: every document of the section (or of one namespace/type) with its data, read in bulk
 * (DocumentStore.stream — on the GitHub API the section's archive, a handful of requests), as JSON Lines on
 * stdout or in `--out FILE`, or one file per document under `--dir DIR`. Files are written under a temporary
 * name and renamed at the end, so a failed export leaves nothing half-written.
 */
import type { DocumentListEntry } from '../../document/index.js';
import { ExportTargetError, jsonLine, writeDirectory, writeJsonLines } from '../../export/write-export.js';
import { str, versionFlag } from '../args.js';
import type { CliCommand, CommandContext } from '../command.js';
import { EXIT, type NotFoundResult, printResult, UsageError } from '../io.js';
import { IDENTITY_FLAGS, missingSection, resolveFlag, STORE_FLAGS, withDocuments } from './doc-common.js';

/** Progress every this many documents (stderr, terminals only). */
const PROGRESS_EVERY = 1000;

export const exportCommand: CliCommand = {
  name: 'doc export',
  summary: 'write every document (with data) as JSON Lines or one file per document',
  usage: `usage: docdb doc export [--namespace NS [--type TYPE]] [--version SHA] [--out FILE | --dir DIR [--force]] [--quiet] [store flags] [--json]

Reads every document of the section (or of one namespace / type) at one version, in bulk (on the GitHub API:
the section's archive — a handful of requests at any size), and writes each envelope
{ namespace, type, id, version, data }:
  (default)    as JSON Lines on stdout, one envelope per line;
  --out FILE   as JSON Lines in FILE;
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
    out: { type: 'string', description: 'write JSON Lines to FILE instead of stdout' },
    dir: { type: 'string', description: 'write one file per document under DIR' },
    force: { type: 'boolean', description: 'with --dir: replace a directory that is not empty' },
    quiet: { type: 'boolean', description: 'no progress on stderr' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
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
  filter: { namespace?: string; type?: string };
  version: string | undefined;
  out: string | undefined;
  dir: string | undefined;
  force: boolean;
  quiet: boolean;
}

function exportOptions(ctx: CommandContext): ExportOptions {
  const namespace = str(ctx.values, 'namespace');
  const type = str(ctx.values, 'type');
  if (type !== undefined && namespace === undefined) throw new UsageError('--type needs --namespace', '--type');
  const out = str(ctx.values, 'out');
  const dir = str(ctx.values, 'dir');
  if (out !== undefined && dir !== undefined) throw new UsageError('give --out or --dir, not both', '--out');
  if (ctx.values.force === true && dir === undefined) throw new UsageError('--force applies to --dir only', '--force');
  if (ctx.json && out === undefined && dir === undefined) {
    throw new UsageError('--json needs --out or --dir (the documents themselves are JSON Lines on stdout)', '--json');
  }
  return {
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
    if (opts.out !== undefined) return await writeJsonLines(opts.out, entries, (n) => progress.tick(n));
    if (opts.dir !== undefined) return await writeDirectory(opts.dir, entries, opts.force, (n) => progress.tick(n));
  } catch (e) {
    if (e instanceof ExportTargetError) throw new UsageError(e.message, opts.dir !== undefined ? '--dir' : '--out');
    throw e;
  }
  let n = 0;
  for await (const e of entries) {
    if (!e.document) continue;
    ctx.io.stdout(jsonLine(e.document));
    progress.tick(++n);
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
