/**
 * `docdb doc search-index`: the section's search declaration (docs/search.md) — show it, declare the
 * searchable fields of one namespace/type (its search index built in one commit), drop that type's
 * search index, or rebuild it from the documents (a damaged file). The same declaration as a projection spec's `search:` and the library's `docs.declareSearch`.
 */
import { InvalidConfig } from '../../core/errors.js';
import { type TypeSearch, validateSearchDeclaration } from '../../document/search/index.js';
import { checkRebuildSearch, type SearchTypeName } from '../../document/search-rebuild.js';
import { checkUsage, type FlagValues, str, strs, versionFlag } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import {
  type DeclarationAction,
  type DeclarationKind,
  declarationAction,
  runDeclaration,
} from './declaration-command.js';
import { IDENTITY_FLAGS, STORE_FLAGS, withDocuments } from './doc-common.js';
import { report } from './doc-write.js';

export const searchIndex: CliCommand = {
  name: 'doc search-index',
  summary: 'show, declare, drop or rebuild the search index of a namespace/type (what doc search answers from)',
  usage: `usage: docdb doc search-index [--namespace NS --type TYPE [--fields F1,F2... | --drop | --rebuild]] [--message M] [--version SHA] [store flags] [--json]

Without --fields: prints the section's search declaration, one "NAMESPACE/TYPE: field, field" per line
(only NS/TYPE's with --namespace/--type; --version reads it at an older commit). With --json: { version: 1,
search: [{ namespace, type, fields }] }.
With --fields (comma-separated or repeated, 1 to 8: id or data.<path>, e.g. --fields
data.title,data.body): declares NS/TYPE's searchable fields — replacing what it had — and builds its
search index from the type's documents in one commit, printed as for doc put. Declaring the same fields again makes no commit. --drop
removes NS/TYPE's declaration and search index in one commit. Every later write keeps the search index
exact in the same commit as the documents. --rebuild builds NS/TYPE's search index again from its
documents at the tip, for the fields declared, in one commit: the way out when a file of it is damaged (a
search fails with InvalidResponse); a type without a search index is an error.`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    fields: {
      type: 'string',
      multiple: true,
      description: 'the searchable fields, comma-separated (or repeat the flag): id or data.<path>',
    },
    drop: { type: 'boolean', description: "remove NS/TYPE's search index" },
    rebuild: { type: 'boolean', description: "build NS/TYPE's search index again from its documents (a damaged file)" },
    message: { type: 'string', description: 'commit message (declaring, dropping or rebuilding)' },
    version: { type: 'string', description: 'show the declaration at this commit (SHA, or its first 4+ characters)' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const [action, given] = await checkUsage(
      () => actionFrom(ctx.values),
      () => versionFlag(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    if (action.kind !== 'rebuild') return runDeclaration(SEARCH, ctx, action, given);
    const message = str(ctx.values, 'message');
    const r = await withDocuments(ctx, (docs) => docs.rebuildSearch([action.t], message ? { message } : {}));
    return report(ctx, `rebuild search index ${action.t.namespace}/${action.t.type}`, r, { search: action.t });
  },
};

/** `doc search-index`: a type's searchable fields, comma-separated or the flag repeated. */
const SEARCH: DeclarationKind = {
  noun: 'search index',
  fieldsFlag: 'fields',
  fieldsOf: fieldsGiven,
  check: checkFields,
  listKey: 'search',
  typeKey: 'search',
  read: async (docs, version) => (await docs.searchDeclaration(version ? { version } : {})).search,
  declare: (docs, t, options) => docs.declareSearch([t], options),
};

type SearchIndexAction = DeclarationAction | { kind: 'rebuild'; t: SearchTypeName };

/** What the flags ask: show, declare or drop (declaration-command.ts), or rebuild one type. */
function actionFrom(values: FlagValues): SearchIndexAction {
  if (values.rebuild !== true) return declarationAction(SEARCH, values);
  if (values.drop === true || SEARCH.fieldsOf(values) !== undefined) {
    const other = values.drop === true ? '--drop' : '--fields';
    throw new UsageError(`give --rebuild alone: it builds the declared fields again (not with ${other})`, other);
  }
  if (values.version !== undefined)
    throw new UsageError('--rebuild builds at the tip; --version is for showing', '--version');
  const namespace = str(values, 'namespace');
  const type = str(values, 'type');
  if (namespace === undefined || type === undefined) {
    throw new UsageError('--rebuild needs --namespace and --type', namespace === undefined ? '--namespace' : '--type');
  }
  try {
    return { kind: 'rebuild', t: checkRebuildSearch([{ namespace, type }])[0]! };
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    // "rebuildSearch types[0].type: doc_type "a/b" is invalid: …" → "--type: doc_type "a/b" is invalid: …"
    const flag = String(e.data.field).endsWith('.type') ? '--type' : '--namespace';
    throw new UsageError(`${flag}: ${e.message.replace(/^rebuildSearch types\[0\]\.\w+:? /, '')}`, flag);
  }
}

/** The --fields given, comma-separated or the flag repeated; undefined when none is. */
function fieldsGiven(values: FlagValues): string[] | undefined {
  const given = strs(values, 'fields');
  if (given.length === 0) return undefined;
  return given
    .join(',')
    .split(',')
    .map((f) => f.trim());
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
