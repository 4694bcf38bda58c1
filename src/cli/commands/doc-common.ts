/** What the `doc` subcommands share: identity flags and running against the store the flags pick. */
import { DocumentStore, type Identity } from '../../document/index.js';
import { type FlagSpecs, type FlagValues, required } from '../args.js';
import type { CommandContext } from '../command.js';
import { openStore, STORE_FLAGS } from '../store-factory.js';

export const IDENTITY_FLAGS: FlagSpecs = {
  namespace: { type: 'string', description: 'document namespace, e.g. github' },
  type: { type: 'string', description: 'document type, e.g. repo' },
  id: { type: 'string', description: 'document id, e.g. octo-org/widgets' },
};

export { STORE_FLAGS };

/** The identity from --namespace/--type/--id (all required). */
export function identityFrom(values: FlagValues): Identity {
  return {
    namespace: required(values, 'namespace', 'the document namespace'),
    doc_type: required(values, 'type', 'the document type'),
    id: required(values, 'id', 'the document id'),
  };
}

export const label = (i: Identity) => `${i.namespace}/${i.doc_type}/${i.id}`;

/** Open the store, run `fn` with a DocumentStore over it, close the store. */
export async function withDocuments<T>(
  ctx: CommandContext,
  fn: (docs: DocumentStore, where: string) => Promise<T>,
): Promise<T> {
  const opened = await openStore(ctx.values, ctx.io);
  ctx.secrets.push(...opened.secrets);
  try {
    return await fn(new DocumentStore(opened.store), opened.where);
  } finally {
    await opened.close();
  }
}

/** `abc1234` from a SHA. */
export const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 7) : '(none)');
