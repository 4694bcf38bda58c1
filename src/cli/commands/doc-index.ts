/**
 * `docdb doc index`: the section's index declaration (docs/indexes.md) — show it, declare the fields of
 * one namespace/type (built in one commit), or drop that type's index. The same declaration as a
 * projection spec's `index:` and the library's `docs.declareIndexes`.
 */
import { InvalidConfig } from '../../core/errors.js';
import { type TypeIndex, validateDeclaration } from '../../document/indexes/declaration.js';
import { checkUsage, strs, versionFlag } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import { type DeclarationKind, declarationAction, runDeclaration } from './declaration-command.js';
import { IDENTITY_FLAGS, STORE_FLAGS } from './doc-common.js';

export const index: CliCommand = {
  name: 'doc index',
  summary: 'show, declare or drop the index of a namespace/type (what doc query answers from)',
  usage: `usage: docdb doc index [--namespace NS --type TYPE [--field FIELD]... | --drop] [--message M] [--version SHA] [store flags] [--json]

Without --field: prints the section's index declaration, one "NAMESPACE/TYPE: field, field" per line (only
NS/TYPE's with --namespace/--type; --version reads it at an older commit). With --json: { version: 1,
indexes: [{ namespace, type, fields }] }.
With --field (repeatable, 1 to 8: id or data.<path>, e.g. --field data.language --field data.stars):
declares NS/TYPE's indexed fields — replacing what it had — and builds its index in one commit, printed
as for doc put. Declaring the same fields again makes no commit. --drop removes NS/TYPE's declaration and
index in one commit. Every later write keeps the index exact in the same commit as the documents.`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    field: { type: 'string', multiple: true, description: 'a field to index: id or data.<path> (repeatable)' },
    drop: { type: 'boolean', description: "remove NS/TYPE's index" },
    message: { type: 'string', description: 'commit message (declaring or dropping)' },
    version: { type: 'string', description: 'show the declaration at this commit (SHA, or its first 4+ characters)' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const [action, given] = await checkUsage(
      () => declarationAction(INDEX, ctx.values),
      () => versionFlag(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    return runDeclaration(INDEX, ctx, action, given);
  },
};

/** `doc index`: the fields of a type's index, one per repeated --field. */
const INDEX: DeclarationKind = {
  noun: 'index',
  fieldsFlag: 'field',
  fieldsOf: (values) => {
    const fields = strs(values, 'field');
    return fields.length > 0 ? fields : undefined;
  },
  check: checkFields,
  listKey: 'indexes',
  typeKey: 'index',
  read: async (docs, version) => (await docs.indexes(version ? { version } : {})).indexes,
  declare: (docs, t, options) => docs.declareIndexes([t], options),
};

/** The library's declaration rules, before any I/O; a problem names --field (its position among them). */
function checkFields(index: TypeIndex): void {
  try {
    validateDeclaration({ version: 1, indexes: [index] });
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    const at = /fields\[(\d+)\]/.exec(String(e.data.field ?? ''));
    const which = at ? `--field ${JSON.stringify(index.fields[Number(at[1])])}` : '--field';
    const why = e.message.replace(/^index declaration indexes\[0\](\.fields(\[\d+\])?)? ?/, '');
    throw new UsageError(`${which}: ${why}`, '--field');
  }
}
