/**
 * `docdb doc index`: the section's index declaration (docs/indexes.md) — show it, declare the fields of
 * one namespace/type (built in one commit), or drop that type's index. The same declaration as a
 * projection spec's `index:` and the library's `docs.declareIndexes`.
 */
import { InvalidConfig } from '../../core/errors.js';
import { type TypeIndex, validateDeclaration } from '../../document/indexes/declaration.js';
import { checkUsage, type FlagValues, str, strs, versionFlag } from '../args.js';
import type { CliCommand } from '../command.js';
import { EXIT, printResult, UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import { IDENTITY_FLAGS, resolveFlag, STORE_FLAGS, withDocuments } from './doc-common.js';
import { report } from './doc-write.js';

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
      () => actionFrom(ctx.values),
      () => versionFlag(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    if (action.kind === 'show') {
      const declaration = await withDocuments(ctx, async (docs) => {
        const version = await resolveFlag(docs, 'version', given);
        return docs.indexes(version ? { version } : {});
      });
      const { namespace, type } = action;
      const shown = declaration.indexes.filter(
        (i) => namespace === undefined || (i.namespace === namespace && i.type === type),
      );
      printResult(ctx.io, ctx.json, { version: 1, indexes: shown }, () =>
        shown.length === 0
          ? `# no index declared${namespace !== undefined ? ` for ${namespace}/${type}` : ''} (declare one with --field)`
          : shown.map((i) => `${i.namespace}/${i.type}: ${i.fields.join(', ')}`).join('\n'),
      );
      return EXIT.ok;
    }
    const message = str(ctx.values, 'message');
    const r = await withDocuments(ctx, (docs) => docs.declareIndexes([action.index], message ? { message } : {}));
    const { namespace, type, fields } = action.index;
    const what =
      fields.length === 0 ? `drop index ${namespace}/${type}` : `index ${namespace}/${type} (${fields.join(', ')})`;
    return report(ctx, what, r, { index: action.index });
  },
};

type IndexAction = { kind: 'show'; namespace?: string; type?: string } | { kind: 'declare'; index: TypeIndex };

/** What the flags ask: show (all, or one type), declare fields, or drop (fields: []). */
function actionFrom(values: FlagValues): IndexAction {
  const namespace = str(values, 'namespace');
  const type = str(values, 'type');
  const fields = strs(values, 'field');
  const drop = values.drop === true;
  if ((namespace === undefined) !== (type === undefined)) {
    throw new UsageError(
      'give --namespace and --type together (the type whose index to show or declare)',
      namespace === undefined ? '--namespace' : '--type',
    );
  }
  if (drop && fields.length > 0) throw new UsageError('give --field or --drop, not both', '--drop');
  if ((drop || fields.length > 0) && namespace === undefined) {
    throw new UsageError(`${drop ? '--drop' : '--field'} needs --namespace and --type`, '--namespace');
  }
  if (!drop && fields.length === 0)
    return namespace === undefined ? { kind: 'show' } : { kind: 'show', namespace, type };
  if (values.version !== undefined)
    throw new UsageError('--version applies to showing the declaration only', '--version');
  const index = { namespace: namespace as string, type: type as string, fields };
  if (!drop) checkFields(index);
  return { kind: 'declare', index };
}

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
