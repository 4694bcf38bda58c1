/**
 * `docdb doc schema`: the JSON Schema of one namespace/type (docs/schemas.md) — print it, declare one from a
 * file (`--set`, refused when documents already in the section break it unless `--force`), or drop it. The
 * same declaration as the library's `docs.declareSchema` and a write's `schemas` option.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DocDbError } from '../../core/errors.js';
import { assertValidIdentity } from '../../document/identity.js';
import { checkUsage, type FlagValues, str, versionFlag } from '../args.js';
import type { CliCommand, CommandContext } from '../command.js';
import { EXIT, printResult, UsageError, withAdvice } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import { IDENTITY_FLAGS, resolveFlag, STORE_FLAGS, withDocuments } from './doc-common.js';
import { report } from './doc-write.js';

export const schema: CliCommand = {
  name: 'doc schema',
  summary: 'show, declare (--set FILE) or drop the JSON Schema documents of a namespace/type must follow',
  usage: `usage: docdb doc schema --namespace NS --type TYPE [--set FILE [--force] | --drop] [--message M] [--version SHA] [store flags] [--json]

Without --set or --drop: prints NS/TYPE's schema as JSON (at an older commit with --version), or a line
starting with "#" when none is declared; with --json: { namespace, type, schema } (schema null when none).
--set FILE ("-": stdin) declares the JSON Schema (2020-12) in FILE for the documents' data, in one commit
printed as for doc put; declaring the same schema again makes no commit. It is refused (exit 2, nothing
written) when it is not valid JSON Schema, or when documents already in the section break it — the first
ones are listed — unless --force. --drop removes it. From then on every writer (doc put, the library, the
Action, the browser client, shard merges) refuses a document of NS/TYPE that breaks it.`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    set: { type: 'string', description: 'declare the JSON Schema in FILE ("-": stdin)' },
    force: { type: 'boolean', description: 'with --set: declare even if documents already in the section break it' },
    drop: { type: 'boolean', description: "remove NS/TYPE's schema" },
    message: { type: 'string', description: 'commit message (declaring or dropping)' },
    version: { type: 'string', description: 'show the schema at this commit (SHA, or its first 4+ characters)' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const [action, given] = await checkUsage(
      () => actionFrom(ctx.values),
      () => versionFlag(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const t = { namespace: action.namespace, type: action.type };
    if (action.kind === 'show') {
      const found = await withDocuments(ctx, async (docs) => {
        const version = await resolveFlag(docs, 'version', given);
        return docs.schema(t, version ? { version } : {});
      });
      printResult(ctx.io, ctx.json, { ...t, schema: found }, () =>
        found === null
          ? `# no schema declared for ${t.namespace}/${t.type} (declare one with --set FILE)`
          : JSON.stringify(found, null, 2),
      );
      return EXIT.ok;
    }
    const declared = action.kind === 'set' ? await readSchema(ctx, action.file) : null;
    const message = str(ctx.values, 'message');
    const options = { ...(message ? { message } : {}), ...(ctx.values.force === true ? { force: true } : {}) };
    const r = await withDocuments(ctx, (docs) =>
      docs.declareSchema(t, declared, options).catch((e: unknown) => {
        throw flagged(e, action.kind === 'set' ? action.file : undefined);
      }),
    );
    const what = `${declared === null ? 'drop schema' : 'schema'} ${t.namespace}/${t.type}`;
    return report(ctx, what, r, { namespace: t.namespace, type: t.type });
  },
};

type SchemaAction = { namespace: string; type: string } & (
  | { kind: 'show' }
  | { kind: 'set'; file: string }
  | { kind: 'drop' }
);

/** What the flags ask: show, declare from a file, or drop — each for one NS/TYPE. */
function actionFrom(values: FlagValues): SchemaAction {
  const namespace = str(values, 'namespace');
  const type = str(values, 'type');
  if (namespace === undefined)
    throw new UsageError('--namespace is required (the type whose schema this is)', '--namespace');
  if (type === undefined) throw new UsageError('--type is required (the type whose schema this is)', '--type');
  assertValidIdentity({ namespace, doc_type: type, id: 'x' });
  const file = str(values, 'set');
  const drop = values.drop === true;
  if (file !== undefined && drop) throw new UsageError('give --set FILE or --drop, not both', '--drop');
  if (values.force === true && file === undefined) throw new UsageError('--force applies to --set only', '--force');
  if ((file !== undefined || drop) && values.version !== undefined) {
    throw new UsageError('--version applies to showing the schema only', '--version');
  }
  if (file !== undefined) return { kind: 'set', namespace, type, file };
  return drop ? { kind: 'drop', namespace, type } : { kind: 'show', namespace, type };
}

/** The schema in FILE (or stdin): a JSON object, else a usage error naming --set. */
async function readSchema(ctx: CommandContext, file: string): Promise<object> {
  let text: string | undefined;
  try {
    text = file === '-' ? await ctx.io.readStdin() : await readFile(resolve(ctx.io.cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(
      `--set ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      '--set',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '');
  } catch (e) {
    throw new UsageError(`--set ${file} is not valid JSON: ${(e as Error).message}`, '--set');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`--set ${file} must hold a JSON Schema object, e.g. { "type": "object" }`, '--set');
  }
  return parsed;
}

/** A refused declaration names the flag it came from: --set FILE, and --force for documents breaking it. */
function flagged(e: unknown, file: string | undefined): unknown {
  if (!(e instanceof DocDbError) || e.code !== 'InvalidConfig' || file === undefined) return e;
  const breaking = typeof e.data.count === 'number';
  return withAdvice(
    e,
    breaking
      ? `--set ${file}: fix those documents (or docdb migrate), or pass --force to declare it anyway`
      : `--set ${file} is not a schema docdb accepts`,
  );
}
