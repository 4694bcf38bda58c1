/**
 * What `docdb doc export --format sqlite|parquet` share: the flags a format does not take, `--out` and the
 * namespace/type filter, and the run — the version resolved (`--version`, else the tip), a missing section
 * reported, and a target the export refuses (`ExportTargetError`) turned into a usage error naming `--out`.
 */
import type { VersionId } from '../../core/version.js';
import type { DocumentStore } from '../../document/document-store.js';
import { ExportTargetError } from '../../export/errors.js';
import { str, versionFlag } from '../args.js';
import type { CommandContext } from '../command.js';
import { type NotFoundResult, UsageError } from '../io.js';
import { missingSection, resolveFlag, withDocuments } from './doc-common.js';

/** A target export's options from the command line: `--out`, the filter and `--version`. */
export interface ExportTargetOptions {
  out: string;
  filter: { namespace?: string; type?: string };
  version: string | undefined;
}

/**
 * Check the flags of `--format <format>`: each flag in `notWith` is a usage error saying why; `--out` is
 * required (`outMissing` says what to give); `--type` needs `--namespace`.
 *
 * @example
 * const opts = exportTargetOptions(ctx, 'parquet', { fields: 'the columns are chosen per type' }, 'give --out DIR');
 */
export function exportTargetOptions(
  ctx: CommandContext,
  format: string,
  notWith: Readonly<Record<string, string>>,
  outMissing: string,
): ExportTargetOptions {
  for (const [flag, why] of Object.entries(notWith)) {
    if (ctx.values[flag] !== undefined && ctx.values[flag] !== false) {
      throw new UsageError(`--${flag} does not apply to --format ${format} (${why})`, `--${flag}`);
    }
  }
  const out = str(ctx.values, 'out');
  if (out === undefined) throw new UsageError(`--format ${format} ${outMissing}`, '--out');
  const namespace = str(ctx.values, 'namespace');
  const type = str(ctx.values, 'type');
  if (type !== undefined && namespace === undefined) throw new UsageError('--type needs --namespace', '--type');
  return {
    out,
    filter: { ...(namespace !== undefined ? { namespace } : {}), ...(type !== undefined ? { type } : {}) },
    version: versionFlag(ctx.values),
  };
}

/**
 * Run `write` on the section at the version asked (`--version`, else the tip); a target it refuses is a usage
 * error naming `--out` (exit 2).
 *
 * @example
 * const result = await runTargetExport(ctx, opts, (docs, where, version) => exportParquet(docs, { dir: opts.out, section: where, version }));
 */
export function runTargetExport<R>(
  ctx: CommandContext,
  opts: ExportTargetOptions,
  write: (docs: DocumentStore, where: string, version: VersionId) => Promise<R>,
): Promise<R> {
  return withDocuments(ctx, async (docs, where) => {
    const version = (await resolveFlag(docs, 'version', opts.version)) ?? (await docs.head());
    if (version === null) throw (await missingSection(docs, where)) as NotFoundResult;
    try {
      return await write(docs, where, version);
    } catch (e) {
      if (e instanceof ExportTargetError) throw new UsageError(e.message, '--out');
      throw e;
    }
  });
}
