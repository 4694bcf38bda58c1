/** `docdb doc put` and `doc delete`: one commit each (none when nothing changes). */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { WriteResult } from '../../core/refstore.js';
import { deriveKey } from '../../document/identity.js';
import { checkUsage, type FlagValues, str } from '../args.js';
import type { CliCommand, CommandContext } from '../command.js';
import { EXIT, UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import { DOCUMENT_ARG, IDENTITY_FLAGS, identityFrom, label, STORE_FLAGS, short, withDocuments } from './doc-common.js';

const MESSAGE_FLAG = { type: 'string' as const, description: 'commit message (default names the key)' };
const IF_MATCH_FLAG = {
  type: 'string' as const,
  description: 'write only if the document still has this etag (blob SHA from doc get), or "absent"',
};

/** `--if-match <sha|absent>` → the ifMatch option (undefined when not given). */
function ifMatchFrom(values: FlagValues): { ifMatch?: string | null } {
  const v = str(values, 'if-match');
  if (v === undefined) return {};
  if (v === 'absent') return { ifMatch: null };
  if (!/^[0-9a-f]{40}$/.test(v)) {
    throw new UsageError(
      `--if-match must be the document's etag (a 40-character lowercase hex blob SHA, printed by docdb doc get) or "absent", got ${JSON.stringify(v)}`,
      '--if-match',
    );
  }
  return { ifMatch: v };
}

/** The document data from --data, --file (or --file -) or stdin, parsed as JSON. */
async function readData(values: FlagValues, ctx: CommandContext): Promise<unknown> {
  const data = str(values, 'data');
  const file = str(values, 'file');
  if (data !== undefined && file !== undefined)
    throw new UsageError('give either --data or --file, not both', '--data');
  let text: string | undefined;
  let source: string;
  if (data !== undefined) {
    text = data;
    source = '--data';
  } else if (file !== undefined && file !== '-') {
    source = `--file ${file}`;
    try {
      text = await readFile(resolve(ctx.io.cwd, file), 'utf8');
    } catch (e) {
      throw new UsageError(
        `--file ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        '--file',
      );
    }
  } else {
    source = 'stdin';
    text = await ctx.io.readStdin();
    if (text === undefined || text.trim() === '') {
      throw new UsageError(
        `no document data: give --data JSON, --file FILE, or pipe the JSON to stdin${text === undefined ? '' : ' (stdin was empty)'}`,
        '--data',
      );
    }
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(
      `${source} is not valid JSON: ${(e as Error).message}`,
      source.startsWith('--') ? source.split(' ')[0] : undefined,
    );
  }
}

/**
 * What a write prints: the version on stdout (scriptable), what happened on stderr; or one JSON value.
 *
 * @example
 * return report(ctx, `put ${label(identity)}`, await docs.put(input));
 */
export function report(ctx: CommandContext, what: string, r: WriteResult, extra: Record<string, unknown> = {}): number {
  if (ctx.json) {
    const { version, previousVersion, changed, written, deleted, unchanged } = r;
    ctx.io.stdout(`${JSON.stringify({ version, previousVersion, changed, written, deleted, unchanged, ...extra })}\n`);
    return EXIT.ok;
  }
  if (r.version) ctx.io.stdout(`${r.version}\n`);
  ctx.io.stderr(
    r.changed
      ? `${what}: new version ${short(r.version)}${r.previousVersion ? ` (previous ${short(r.previousVersion)})` : ' (section created)'}\n`
      : `${what}: unchanged, no commit (version ${short(r.version)})\n`,
  );
  return EXIT.ok;
}

export const put: CliCommand = {
  name: 'doc put',
  summary: 'write one document (data from --data, --file or stdin)',
  usage: `usage: docdb doc put ${DOCUMENT_ARG} (--data JSON | --file FILE | < FILE) [--message M] [--if-match SHA|absent] [store flags] [--json]

Writes the document's data (any JSON value) as one commit on the section and prints the new version
(the commit SHA) on stdout. Writing identical data makes no commit and prints the current version.
With --if-match (the etag printed by doc get, or "absent" to create only) the write happens only if
the document is still in that state; otherwise nothing is written and the exit code is 4
(PreconditionFailed, with the current etag). With --json: { version, previousVersion, changed,
written, deleted, unchanged, key }.`,
  flags: {
    ...IDENTITY_FLAGS,
    data: { type: 'string', description: 'the data as JSON' },
    file: { type: 'string', description: 'read the data (JSON) from FILE ("-": stdin)' },
    message: MESSAGE_FLAG,
    'if-match': IF_MATCH_FLAG,
    ...STORE_FLAGS,
  },
  maxPositionals: 1,
  async run(ctx) {
    // Every problem of the command line at once: the document, --if-match, the data, the store flags.
    const [identity, ifMatch, data] = await checkUsage(
      () => identityFrom(ctx.values, ctx.positionals),
      () => ifMatchFrom(ctx.values),
      () => readData(ctx.values, ctx),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const message = str(ctx.values, 'message');
    const r = await withDocuments(ctx, (docs) =>
      docs.put(
        { namespace: identity.namespace, type: identity.doc_type, id: identity.id, data },
        { ...(message ? { message } : {}), ...ifMatch },
      ),
    );
    // The key, as the Action's `keys` output prints it (and as every document command takes it back).
    return report(ctx, `put ${label(identity)}`, r, { key: deriveKey(identity) });
  },
};

export const del: CliCommand = {
  name: 'doc delete',
  summary: 'delete one document',
  usage: `usage: docdb doc delete ${DOCUMENT_ARG} [--message M] [--if-match SHA|absent] [store flags] [--json]

Deletes the document in one commit and prints the new version. Deleting a document that does not exist
makes no commit and is not an error (exit code 0; "unchanged" on stderr). With --if-match the delete
happens only if the document still has that etag ("absent": only if it is already gone, so no commit);
otherwise the exit code is 4 (PreconditionFailed).`,
  flags: { ...IDENTITY_FLAGS, message: MESSAGE_FLAG, 'if-match': IF_MATCH_FLAG, ...STORE_FLAGS },
  maxPositionals: 1,
  async run(ctx) {
    const [identity, ifMatch] = await checkUsage(
      () => identityFrom(ctx.values, ctx.positionals),
      () => ifMatchFrom(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const message = str(ctx.values, 'message');
    const r = await withDocuments(ctx, (docs) =>
      docs.delete(identity, { ...(message ? { message } : {}), ...ifMatch }),
    );
    return report(ctx, `delete ${label(identity)}`, r, { key: deriveKey(identity) });
  },
};
