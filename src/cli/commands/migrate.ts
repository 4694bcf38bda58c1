/**
 * `docdb migrate`: every document of one namespace/type migrated in one commit (docs/migrations.md) —
 * the library's `docs.migrate`, with the operations as repeatable flags applied in the order given.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidConfig } from '../../core/errors.js';
import {
  assertOperations,
  cappedSample,
  type MigrationOperation,
  type MigrationResult,
  OPERATION_NAMES,
  OPERATION_SYNTAX,
  parseOperation,
  sampleLines,
} from '../../document/migrate/index.js';
import { checkUsage, type FlagValues, requiredFlags, str } from '../args.js';
import type { CliCommand, CommandContext } from '../command.js';
import { EXIT, printResult, UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import { IDENTITY_FLAGS, STORE_FLAGS, short, withDocuments } from './doc-common.js';

export const command: CliCommand = {
  name: 'migrate',
  summary: 'rename, set, cast, drop fields or move the type of every document of a type, in one commit',
  usage: `usage: docdb migrate --namespace NS --type TYPE [--rename data.A=data.B] [--set data.X=VALUE]
       [--cast data.N=number|string|boolean] [--drop data.Y] [--move-type NS2/TYPE2] [--schema FILE]
       [--dry-run] [--message M] [store flags] [--json]

Migrates every document of NS/TYPE in ONE commit, compare-and-set on the version it read (a write by
someone else in between refuses the commit: run it again). The operations are applied to each document
in the order given on the command line (each flag may be repeated):
  --rename data.A=data.B   move a field (a document that already has data.B is an error, never overwritten)
  --set data.X=VALUE       set a field where it is absent; VALUE is JSON (3, true, "3", {"a":1}), else a string
  --cast data.N=TYPE       convert to number, string or boolean (null stays; a value that cannot be
                           converted is an error naming the document and the field)
  --drop data.Y            remove a field
  --move-type NS2/TYPE2    move the documents to another type, keeping their ids (the index moves too)
--schema FILE declares a JSON Schema for the (new) type in the same commit. The commit message records the
operations (a "Docdb-Migration:" trailer, shown by doc history). --dry-run reads and prints the counts and
the first 5 changed documents before and after (long values cut), and writes nothing. With --json:
{ version, previousVersion, changed, dryRun, counts: { read, changed, unchanged, moved }, samples, operations }.
Exit code 2 for a bad flag, or a document the operations cannot migrate (nothing is written).`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    rename: { type: 'string', multiple: true, description: `move a field: ${OPERATION_SYNTAX.rename}` },
    set: { type: 'string', multiple: true, description: `set where absent: ${OPERATION_SYNTAX.set}` },
    cast: { type: 'string', multiple: true, description: `convert a field: ${OPERATION_SYNTAX.cast}` },
    drop: { type: 'string', multiple: true, description: `remove a field: ${OPERATION_SYNTAX.drop}` },
    'move-type': { type: 'string', description: `move to another type: ${OPERATION_SYNTAX['move-type']}` },
    schema: { type: 'string', description: 'a JSON Schema file declared for the (new) type in the same commit' },
    'dry-run': { type: 'boolean', description: 'print counts and 5 samples; write nothing' },
    message: { type: 'string', description: 'commit subject (the Docdb-Migration trailer is always added)' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const [type, operations, schema] = await checkUsage(
      () => requiredFlags(ctx.values, ['namespace', 'type'], 'the type to migrate'),
      () => operationsFrom(ctx),
      () => readSchema(ctx),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const [namespace, docType] = type as [string, string];
    const dryRun = ctx.values['dry-run'] === true;
    const message = str(ctx.values, 'message');
    const checked = checkOperations(operations, namespace, docType);
    const r = await withDocuments(ctx, (docs) =>
      docs.migrate({
        namespace,
        type: docType,
        operations: checked.map((c) => c.operation),
        dryRun,
        ...(schema !== undefined ? { schema } : {}),
        ...(message !== undefined ? { message } : {}),
      }),
    );
    return report(ctx, `${namespace}/${docType}`, r);
  },
};

const OPERATION_FLAGS: readonly string[] = OPERATION_NAMES;

interface FlagOperation {
  flag: string;
  value: string;
  operation: MigrationOperation;
}

/** The operation flags in the order given (each parsed; a problem names its flag). */
function operationsFrom(ctx: CommandContext): FlagOperation[] {
  const given = (ctx.ordered ?? orderedFromValues(ctx.values)).filter((o) => OPERATION_FLAGS.includes(o.name));
  if (given.length === 0) {
    throw new UsageError(
      `give at least one operation: ${OPERATION_NAMES.map((n) => `--${n} ${OPERATION_SYNTAX[n].split(' ')[0]}`).join(', ')}`,
      '--rename',
    );
  }
  return given.map(({ name, value }) => ({
    flag: `--${name}`,
    value,
    operation: asUsage(`--${name}`, () => parseOperation(name, value, `--${name}`)),
  }));
}

/** Hand-built contexts (tests) have no `ordered`: the flags one kind after another. */
function orderedFromValues(values: FlagValues): { name: string; value: string }[] {
  return OPERATION_NAMES.flatMap((name) => {
    const v = values[name];
    return (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []).map((value) => ({ name, value }));
  });
}

/** The library's checks of the whole list; a problem names the flag of the operation it is about. */
function checkOperations(given: FlagOperation[], namespace: string, type: string): FlagOperation[] {
  try {
    assertOperations(
      given.map((g) => g.operation),
      { namespace, type },
    );
    return given;
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    const at = /^operations\[(\d+)\]/.exec(String(e.data.field ?? ''));
    const g = at ? given[Number(at[1])] : given.find((x) => x.flag === '--move-type');
    const flag = g?.flag ?? '--move-type';
    const why = e.message.replace(/^operations(\[\d+\])?(\.\w+)?: /, '');
    throw new UsageError(
      `${flag}${g ? ` ${g.value}` : ''}: ${why}${e.data.allowed ? ` (allowed: ${e.data.allowed})` : ''}`,
      flag,
    );
  }
}

function asUsage<T>(flag: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof InvalidConfig) throw new UsageError(e.message, flag);
    throw e;
  }
}

/** `--schema FILE`: a JSON object, read before any request. */
async function readSchema(ctx: CommandContext): Promise<object | undefined> {
  const file = str(ctx.values, 'schema');
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(resolve(ctx.io.cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(
      `--schema ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      '--schema',
    );
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--schema ${file}: not JSON (${(e as Error).message})`, '--schema');
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UsageError(`--schema ${file}: a JSON Schema is a JSON object`, '--schema');
  }
  return schema;
}

function report(ctx: CommandContext, what: string, r: MigrationResult): number {
  const { version, previousVersion, changed, dryRun, counts, operations } = r;
  printResult(
    ctx.io,
    ctx.json,
    { version, previousVersion, changed, dryRun, counts, samples: r.samples.map(cappedSample), operations },
    () => (dryRun ? r.samples.flatMap(sampleLines).join('\n') : (version ?? '')),
  );
  if (ctx.json) return EXIT.ok;
  const c = `${counts.read} read, ${counts.changed} changed, ${counts.unchanged} unchanged, ${counts.moved} moved`;
  ctx.io.stderr(
    dryRun
      ? `# dry run of migrate ${what} at ${short(previousVersion)}: ${c}; nothing written\n`
      : changed
        ? `migrate ${what}: ${c}; new version ${short(version)} (previous ${short(previousVersion)})\n`
        : `migrate ${what}: ${c}; nothing to change, no commit (version ${short(version)})\n`,
  );
  return EXIT.ok;
}
