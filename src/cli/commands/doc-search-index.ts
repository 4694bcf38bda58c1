/**
 * `docdb doc search-index`: the section's search declaration (docs/search.md) — show it, declare the
 * searchable fields of one namespace/type (its search index built in one commit), or drop that type's
 * search index. The same declaration as a projection spec's `search:` and the library's `docs.declareSearch`.
 */
import { InvalidConfig } from '../../core/errors.js';
import { type TypeSearch, validateSearchDeclaration } from '../../document/search/index.js';
import { checkUsage, type FlagValues, str, strs, versionFlag } from '../args.js';
import type { CliCommand } from '../command.js';
import { EXIT, printResult, UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import { IDENTITY_FLAGS, resolveFlag, STORE_FLAGS, withDocuments } from './doc-common.js';
import { report } from './doc-write.js';

export const searchIndex: CliCommand = {
  name: 'doc search-index',
  summary: 'show, declare or drop the search index of a namespace/type (what doc search answers from)',
  usage: `usage: docdb doc search-index [--namespace NS --type TYPE [--fields F1,F2... | --drop]] [--message M] [--version SHA] [store flags] [--json]

Without --fields: prints the section's search declaration, one "NAMESPACE/TYPE: field, field" per line
(only NS/TYPE's with --namespace/--type; --version reads it at an older commit). With --json: { version: 1,
search: [{ namespace, type, fields }] }.
With --fields (comma-separated or repeated, 1 to 8: id or data.<path>, e.g. --fields
data.title,data.body): declares NS/TYPE's searchable fields — replacing what it had — and builds its
search index from the type's documents in one commit, printed as for doc put. Declaring the same fields again makes no commit. --drop
removes NS/TYPE's declaration and search index in one commit. Every later write keeps the search index
exact in the same commit as the documents.`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    fields: {
      type: 'string',
      multiple: true,
      description: 'the searchable fields, comma-separated (or repeat the flag): id or data.<path>',
    },
    drop: { type: 'boolean', description: "remove NS/TYPE's search index" },
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
        return docs.searchDeclaration(version ? { version } : {});
      });
      const { namespace, type } = action;
      const shown = declaration.search.filter(
        (s) => namespace === undefined || (s.namespace === namespace && s.type === type),
      );
      printResult(ctx.io, ctx.json, { version: 1, search: shown }, () =>
        shown.length === 0
          ? `# no search index declared${namespace !== undefined ? ` for ${namespace}/${type}` : ''} (declare one with --fields)`
          : shown.map((s) => `${s.namespace}/${s.type}: ${s.fields.join(', ')}`).join('\n'),
      );
      return EXIT.ok;
    }
    const message = str(ctx.values, 'message');
    const r = await withDocuments(ctx, (docs) => docs.declareSearch([action.search], message ? { message } : {}));
    const { namespace, type, fields } = action.search;
    const what =
      fields.length === 0
        ? `drop search index ${namespace}/${type}`
        : `search index ${namespace}/${type} (${fields.join(', ')})`;
    return report(ctx, what, r, { search: action.search });
  },
};

type SearchIndexAction = { kind: 'show'; namespace?: string; type?: string } | { kind: 'declare'; search: TypeSearch };

/** What the flags ask: show (all, or one type), declare fields, or drop (fields: []). */
function actionFrom(values: FlagValues): SearchIndexAction {
  const namespace = str(values, 'namespace');
  const type = str(values, 'type');
  const given = strs(values, 'fields');
  const fieldsText = given.length > 0 ? given.join(',') : undefined;
  const drop = values.drop === true;
  if ((namespace === undefined) !== (type === undefined)) {
    throw new UsageError(
      'give --namespace and --type together (the type whose search index to show or declare)',
      namespace === undefined ? '--namespace' : '--type',
    );
  }
  if (drop && fieldsText !== undefined) throw new UsageError('give --fields or --drop, not both', '--drop');
  if ((drop || fieldsText !== undefined) && namespace === undefined) {
    throw new UsageError(`${drop ? '--drop' : '--fields'} needs --namespace and --type`, '--namespace');
  }
  if (!drop && fieldsText === undefined) {
    return namespace === undefined ? { kind: 'show' } : { kind: 'show', namespace, type };
  }
  if (values.version !== undefined) {
    throw new UsageError('--version applies to showing the declaration only', '--version');
  }
  const fields = drop ? [] : (fieldsText as string).split(',').map((f) => f.trim());
  const search = { namespace: namespace as string, type: type as string, fields };
  if (!drop) checkFields(search);
  return { kind: 'declare', search };
}

/**
 * The library's declaration rules, before any I/O: a problem with a field names --fields (and the field),
 * one with the namespace or type names --namespace.
 */
function checkFields(search: TypeSearch): void {
  try {
    validateSearchDeclaration({ version: 1, search: [search] });
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    const field = String(e.data.field ?? '');
    const at = /fields\[(\d+)\]/.exec(field);
    const which = at ? `--fields: ${JSON.stringify(search.fields[Number(at[1])])}:` : '--fields:';
    // "search declaration search[0].fields[1] is invalid: why" → "why"
    const why = e.message.replace(/^search declaration search\[0\](\.fields(\[\d+\])?)?:? (is invalid: )?/, '');
    if (!/fields/.test(field)) throw new UsageError(why, '--namespace');
    throw new UsageError(`${which} ${why}`, '--fields');
  }
}
