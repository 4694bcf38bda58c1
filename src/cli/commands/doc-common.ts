/**
 * What the `doc` subcommands share: naming a document (one word `NAMESPACE/TYPE/ID`, or three flags),
 * version flags (abbreviations resolved against the section), and running against the store the flags pick.
 */

import { appendAll } from '../../core/arrays.js';
import { InvalidVersion } from '../../core/errors.js';
import { assertValidIdentity, DOCUMENT_SUFFIX, DocumentStore, type Identity } from '../../document/index.js';
import { type FlagSpecs, type FlagValues, requiredFlags, str } from '../args.js';
import type { CommandContext } from '../command.js';
import { NotFoundResult, UsageError, withAdvice } from '../io.js';
import { openStore, STORE_FLAGS } from '../store-factory.js';

export const IDENTITY_FLAGS: FlagSpecs = {
  namespace: { type: 'string', description: 'document namespace, e.g. github' },
  type: { type: 'string', description: 'document type, e.g. repo' },
  id: { type: 'string', description: 'document id, e.g. octo-org/widgets' },
};

export { STORE_FLAGS };

/** How the usage lines write the document's name. */
export const DOCUMENT_ARG = '(NAMESPACE/TYPE/ID | --namespace NS --type TYPE --id ID)';

const ONE_WORD = 'NAMESPACE/TYPE/ID, e.g. github/repo/octo-org/api (the canonical key, ".json" optional)';

/**
 * The identity a one-word name gives: `namespace/type/id` (the id may hold more `/`), or the document's
 * key `namespace/type/id.json` — the form the Action's `keys` output, its job summary and commit messages
 * print, so a key copied from them names its document (issue 37 item 9). One `.json` is the key's suffix:
 * a document whose id itself ends in `.json` is `ns/type/x.json.json` (its key) or `--id x.json`.
 * Checked by the identity rules (an invalid part is InvalidIdentity naming it: a usage error).
 *
 * @example
 * identityFromName('github/repo/octo-org/api'); // { namespace: 'github', doc_type: 'repo', id: 'octo-org/api' }
 * identityFromName('github/repo/octo-org/api.json'); // the same document
 */
export function identityFromName(name: string): Identity {
  const word = name.endsWith(DOCUMENT_SUFFIX) ? name.slice(0, -DOCUMENT_SUFFIX.length) : name;
  const first = word.indexOf('/');
  const second = first < 0 ? -1 : word.indexOf('/', first + 1);
  if (second < 0) {
    throw new UsageError(`${JSON.stringify(name)} does not name a document: give ${ONE_WORD}, or the three flags`);
  }
  const identity = {
    namespace: word.slice(0, first),
    doc_type: word.slice(first + 1, second),
    id: word.slice(second + 1),
  };
  assertValidIdentity(identity);
  return identity;
}

/**
 * The namespace and type a one-word `NAMESPACE/TYPE` gives (`doc query github/repo`), as the flags would:
 * the same short form `doc get` takes, one level up. A name with an id (a document, or its key) is refused
 * saying which command reads a document.
 *
 * @example
 * typeFromName('github/repo'); // { namespace: 'github', type: 'repo' }
 */
export function typeFromName(name: string): { namespace: string; type: string } {
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.length > 2) {
    const doc = name.endsWith(DOCUMENT_SUFFIX) ? name.slice(0, -DOCUMENT_SUFFIX.length) : name;
    throw new UsageError(
      `${JSON.stringify(name)} names a document, not a type: give NAMESPACE/TYPE, e.g. ${parts.slice(0, 2).join('/')} (to read the document: docdb doc get ${doc})`,
    );
  }
  const [namespace = '', type = ''] = parts;
  if (parts.length < 2 || namespace === '' || type === '') {
    throw new UsageError(
      `${JSON.stringify(name)} does not name a type: give NAMESPACE/TYPE, e.g. github/repo, or --namespace and --type`,
    );
  }
  return { namespace, type };
}

/**
 * The flags with `--namespace`/`--type` taken from a one-word `NAMESPACE/TYPE` positional, if one is given
 * (never with either flag).
 *
 * @example
 * withTypeName({ where: ['data.stars>=10'] }, ['github/repo']); // { where: […], namespace: 'github', type: 'repo' }
 */
export function withTypeName(values: FlagValues, positionals: readonly string[]): FlagValues {
  const [name] = positionals;
  if (name === undefined) return values;
  const given = ['namespace', 'type'].filter((n) => str(values, n) !== undefined);
  if (given.length > 0) {
    throw new UsageError(
      `name the type once: ${JSON.stringify(name)} or --${given.join('/--')}, not both`,
      `--${given[0]}`,
    );
  }
  return { ...values, ...typeFromName(name) };
}

/**
 * The document a command names: the positional `NAMESPACE/TYPE/ID`, or --namespace/--type/--id (every
 * missing one named at once), never both.
 */
export function identityFrom(values: FlagValues, positionals: readonly string[] = []): Identity {
  const [name] = positionals;
  const given = ['namespace', 'type', 'id'].filter((n) => str(values, n) !== undefined);
  if (name !== undefined) {
    if (given.length > 0) {
      throw new UsageError(
        `name the document once: ${JSON.stringify(name)} or --${given.join('/--')}, not both`,
        `--${given[0]}`,
      );
    }
    return identityFromName(name);
  }
  const [namespace, doc_type, id] = requiredFlags(
    values,
    ['namespace', 'type', 'id'],
    `the document; or name it in one word: ${ONE_WORD}`,
  ) as [string, string, string];
  return { namespace, doc_type, id };
}

export const label = (i: Identity) => `${i.namespace}/${i.doc_type}/${i.id}`;

/** Open the store, run `fn` with a DocumentStore over it, close the store; errors get the store's way out. */
export async function withDocuments<T>(
  ctx: CommandContext,
  fn: (docs: DocumentStore, where: string) => Promise<T>,
): Promise<T> {
  const opened = await openStore(ctx.values, ctx.io);
  appendAll(ctx.secrets, opened.secrets);
  try {
    return await fn(new DocumentStore(opened.store), opened.where);
  } catch (e) {
    throw withAdvice(e, opened.advise?.(e));
  } finally {
    await opened.close();
  }
}

/**
 * A version flag's value as a full commit SHA of the section (`docs.resolveVersion`: an abbreviation is
 * looked up, a full SHA costs nothing); its errors name the flag.
 *
 * @example
 * const version = await resolveFlag(docs, 'version', versionFlag(ctx.values));
 */
export async function resolveFlag(docs: DocumentStore, flag: string, value: string | undefined) {
  if (value === undefined) return undefined;
  try {
    return await docs.resolveVersion(value);
  } catch (e) {
    if (e instanceof InvalidVersion) throw new InvalidVersion(value, `--${flag}: ${e.message}`, e.data);
    throw e;
  }
}

/**
 * The error for a read that found nothing because the SECTION does not exist (one ref read, made only on
 * that path), or undefined when the section exists: a mistyped --section is not a missing document.
 */
export async function missingSection(docs: DocumentStore, where: string): Promise<NotFoundResult | undefined> {
  if ((await docs.head()) !== null) return undefined;
  return new NotFoundResult(
    `section ${docs.ref} does not exist (${where}): nothing was ever written to it. Check --section, --root or --ref (the default section is refs/docdb/documents)`,
  );
}

/** `abc1234` from a SHA. */
export const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 7) : '(none)');
