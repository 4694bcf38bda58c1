/**
 * The plumbing `docdb doc index` and `docdb doc search-index` share: both show a section's declaration of
 * per-type fields (all types, or one), declare one type's fields (built in one commit) or drop them. What
 * differs — the noun, the flag that names the fields and how it is spelt, the library calls — is a
 * {@link DeclarationKind}; each command keeps its own usage text and flags.
 */
import type { WriteOptions, WriteResult } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import type { DocumentStore } from '../../document/document-store.js';
import { type FlagValues, str } from '../args.js';
import type { CommandContext } from '../command.js';
import { EXIT, printResult, UsageError } from '../io.js';
import { resolveFlag, withDocuments } from './doc-common.js';
import { report } from './doc-write.js';

/** One type's declared fields (`fields: []` drops the declaration). */
export interface TypeFields {
  namespace: string;
  type: string;
  fields: string[];
}

/** What one declaration command is about. */
export interface DeclarationKind {
  /** What is declared, in messages: `index`, `search index`. */
  noun: string;
  /** The flag naming the fields, without dashes: `field`, `fields`. */
  fieldsFlag: string;
  /** The fields the flag gives, or undefined when it is not given. */
  fieldsOf(values: FlagValues): string[] | undefined;
  /** The library's declaration rules, before any I/O: a `UsageError` naming the flag. */
  check(t: TypeFields): void;
  /** The key of the declared list in the printed JSON (`indexes`, `search`) and of one type in a write's. */
  listKey: string;
  typeKey: string;
  /** The declared types at `version` (the tip when undefined). */
  read(docs: DocumentStore, version: VersionId | undefined): Promise<TypeFields[]>;
  /** Declare (or, with `fields: []`, drop) one type's fields: one commit, none when nothing changes. */
  declare(docs: DocumentStore, t: TypeFields, options: WriteOptions): Promise<WriteResult>;
}

/** What the flags ask: show (all types, or one), or declare one type's fields (`fields: []` = drop). */
export type DeclarationAction =
  | { kind: 'show'; namespace?: string; type?: string }
  | { kind: 'declare'; t: TypeFields };

/**
 * The action the flags ask for, checked before any I/O (`UsageError` naming the flag).
 *
 * @example
 * declarationAction(kind, { namespace: 'github', type: 'repo', drop: true }); // { kind: 'declare', t: { …, fields: [] } }
 */
export function declarationAction(kind: DeclarationKind, values: FlagValues): DeclarationAction {
  const namespace = str(values, 'namespace');
  const type = str(values, 'type');
  const given = kind.fieldsOf(values);
  const drop = values.drop === true;
  const flag = `--${kind.fieldsFlag}`;
  if ((namespace === undefined) !== (type === undefined)) {
    throw new UsageError(
      `give --namespace and --type together (the type whose ${kind.noun} to show or declare)`,
      namespace === undefined ? '--namespace' : '--type',
    );
  }
  if (drop && given !== undefined) throw new UsageError(`give ${flag} or --drop, not both`, '--drop');
  if ((drop || given !== undefined) && namespace === undefined) {
    throw new UsageError(`${drop ? '--drop' : flag} needs --namespace and --type`, '--namespace');
  }
  if (!drop && given === undefined) {
    return namespace === undefined ? { kind: 'show' } : { kind: 'show', namespace, type };
  }
  if (values.version !== undefined) {
    throw new UsageError('--version applies to showing the declaration only', '--version');
  }
  const t = { namespace: namespace as string, type: type as string, fields: drop ? [] : (given as string[]) };
  if (!drop) kind.check(t);
  return { kind: 'declare', t };
}

/**
 * Run the action: print the declaration (`given`: the --version flag, resolved against the section), or
 * declare and print the write as `doc put` does.
 *
 * @example
 * return runDeclaration(kind, ctx, declarationAction(kind, ctx.values), versionFlag(ctx.values));
 */
export async function runDeclaration(
  kind: DeclarationKind,
  ctx: CommandContext,
  action: DeclarationAction,
  given: string | undefined,
): Promise<number> {
  if (action.kind === 'show') {
    const declared = await withDocuments(ctx, async (docs) =>
      kind.read(docs, await resolveFlag(docs, 'version', given)),
    );
    const { namespace, type } = action;
    const shown = declared.filter((t) => namespace === undefined || (t.namespace === namespace && t.type === type));
    printResult(ctx.io, ctx.json, { version: 1, [kind.listKey]: shown }, () =>
      shown.length === 0
        ? `# no ${kind.noun} declared${namespace !== undefined ? ` for ${namespace}/${type}` : ''} (declare one with --${kind.fieldsFlag})`
        : shown.map((t) => `${t.namespace}/${t.type}: ${t.fields.join(', ')}`).join('\n'),
    );
    return EXIT.ok;
  }
  const message = str(ctx.values, 'message');
  const r = await withDocuments(ctx, (docs) => kind.declare(docs, action.t, message ? { message } : {}));
  const { namespace, type, fields } = action.t;
  const what =
    fields.length === 0
      ? `drop ${kind.noun} ${namespace}/${type}`
      : `${kind.noun} ${namespace}/${type} (${fields.join(', ')})`;
  return report(ctx, what, r, { [kind.typeKey]: action.t });
}
