/** `docdb doc get`, `doc list`, `doc history`: reads through DocumentStore on the chosen store. */
import { DOCUMENT_SUFFIX } from '../../document/identity.js';
import { checkUsage, type FlagValues, positiveInt, str, versionFlag } from '../args.js';
import type { CliCommand } from '../command.js';
import { EXIT, NotFoundResult, printResult, UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import {
  DOCUMENT_ARG,
  IDENTITY_FLAGS,
  identityFrom,
  label,
  missingSection,
  resolveFlag,
  STORE_FLAGS,
  short,
  withDocuments,
} from './doc-common.js';

export const get: CliCommand = {
  name: 'doc get',
  summary: 'print one document envelope (or one field of it)',
  usage: `usage: docdb doc get ${DOCUMENT_ARG} [--version SHA] [--data-only | --field PATH] [store flags] [--json]

Prints the document envelope { namespace, type, id, version, data } as JSON (indented; one line with --json,
which adds "etag"). Name the document in one word, NAMESPACE/TYPE/ID (its key, with or without .json, e.g.
github/repo/octo-org/api), or with the three flags. --data-only prints just the data; --field PATH one value
of the envelope (data.stars, data.owner.login, data.topics.0, version): a string as it is, anything else as
JSON. The etag (the document's blob SHA, also printed on stderr) is what doc put/delete --if-match expect.
Without --version the read uses the section's current tip; with it, that commit of the section ref (the full
SHA, or the 7 characters docdb prints). Exit code 3 when the document or the section does not exist, the
version is not a commit of the section, or the field is not in the document.`,
  flags: {
    ...IDENTITY_FLAGS,
    version: { type: 'string', description: 'read at this commit of the section (SHA, or its first 4+ characters)' },
    'data-only': { type: 'boolean', description: 'print only the data (same as --field data)' },
    field: { type: 'string', description: 'print one value of the envelope, e.g. data.stars' },
    ...STORE_FLAGS,
  },
  maxPositionals: 1,
  async run(ctx) {
    const [identity, path, given] = await checkUsage(
      () => identityFrom(ctx.values, ctx.positionals),
      () => fieldPath(ctx.values),
      () => versionFlag(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const { envelope, etag } = await withDocuments(ctx, async (docs, where) => {
      const version = await resolveFlag(docs, 'version', given);
      const read = await docs.read(identity, version ? { version } : {});
      if (!read.document) {
        throw (
          (version ? undefined : await missingSection(docs, where)) ??
          new NotFoundResult(
            `document ${label(identity)} not found in ${where}${version ? ` at ${version}` : ''}${identity.id.endsWith(DOCUMENT_SUFFIX) ? ` (did you mean ${label({ ...identity, id: identity.id.slice(0, -DOCUMENT_SUFFIX.length) })}? Its key is ${label(identity)}.json)` : ''}`,
          )
        );
      }
      return { envelope: read.document, etag: read.etag };
    });
    if (!ctx.json) ctx.io.stderr(`etag ${etag} (for --if-match)\n`);
    if (path) {
      const value = fieldOf(envelope, path);
      printResult(ctx.io, ctx.json, value, () => (typeof value === 'string' ? value : JSON.stringify(value, null, 2)));
    } else printResult(ctx.io, ctx.json, { ...envelope, etag }, () => JSON.stringify(envelope, null, 2));
    return EXIT.ok;
  },
};

/** `--field PATH` or `--data-only` (→ `data`) as path segments; undefined for the whole envelope. */
function fieldPath(values: FlagValues): string[] | undefined {
  const field = str(values, 'field');
  if (field !== undefined && values['data-only'] === true) {
    throw new UsageError('give --data-only or --field, not both (--data-only is --field data)', '--field');
  }
  const path = values['data-only'] === true ? 'data' : field;
  if (path === undefined) return undefined;
  const segments = path.split('.');
  if (segments.some((s) => s === '')) {
    throw new UsageError(`--field ${JSON.stringify(path)} must be dot-separated names, e.g. data.stars`, '--field');
  }
  return segments;
}

/** The value at `path` in the envelope; NotFoundResult naming the first missing step and what is there. */
function fieldOf(envelope: object, path: readonly string[]): unknown {
  let value: unknown = envelope;
  for (const [i, segment] of path.entries()) {
    const here = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
    if (!here || !Object.hasOwn(here, segment)) {
      const at = path.slice(0, i).join('.') || 'the envelope';
      const keys = here ? Object.keys(here).slice(0, 20).join(', ') || 'none' : `none: it is ${JSON.stringify(value)}`;
      throw new NotFoundResult(
        `--field ${path.join('.')}: ${at} has no ${JSON.stringify(segment)} (its fields: ${keys})`,
      );
    }
    value = here[segment];
  }
  return value;
}

export const list: CliCommand = {
  name: 'doc list',
  summary: 'list documents (optionally of one namespace and type)',
  usage: `usage: docdb doc list [--namespace NS] [--type TYPE] [--version SHA] [--limit N] [--cursor C] [store flags] [--json]

Lists documents in key order: one "namespace/type/id" per line on stdout; the count, the version listed
and the next page's cursor go to stderr as "# …" lines.
With --json: { documents: [{ namespace, doc_type, id, key, blobSha }], version, nextCursor }.
--limit pages the list; pass the printed cursor to --cursor for the next page. Exit code 3 when the
section does not exist (nothing was ever written to it: check --section).`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    version: { type: 'string', description: 'list at this commit of the section (SHA, or its first 4+ characters)' },
    limit: { type: 'string', description: 'at most N documents per page' },
    cursor: { type: 'string', description: 'next page: the cursor printed by the previous page' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const namespace = str(ctx.values, 'namespace');
    const type = str(ctx.values, 'type');
    const given = versionFlag(ctx.values);
    const limit = positiveInt(ctx.values, 'limit');
    const cursor = str(ctx.values, 'cursor');
    const result = await withDocuments(ctx, async (docs, where) => {
      const version = await resolveFlag(docs, 'version', given);
      const listed = await docs.list({
        ...(namespace !== undefined ? { namespace } : {}),
        ...(type !== undefined ? { type } : {}),
        ...(version ? { version } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      });
      // An absent section lists nothing at no version: say so (exit 3), as for a missing document.
      if (listed.version === null)
        throw (await missingSection(docs, where)) ?? new NotFoundResult(`nothing to list in ${where}`);
      return listed;
    });
    const { documents, nextCursor } = result;
    printResult(ctx.io, ctx.json, { documents, version: result.version, nextCursor }, () =>
      documents.map((d) => `${d.namespace}/${d.doc_type}/${d.id}`).join('\n'),
    );
    // Status lines go to stderr, so `docdb doc list | …` pipes only the documents.
    if (!ctx.json) {
      ctx.io.stderr(`# ${documents.length} document(s) at ${result.version}\n`);
      if (nextCursor) ctx.io.stderr(`# more: --cursor ${nextCursor}\n`);
    }
    return EXIT.ok;
  },
};

export const history: CliCommand = {
  name: 'doc history',
  summary: 'list the commits that changed a document, newest first',
  usage: `usage: docdb doc history ${DOCUMENT_ARG} [--limit N] [store flags] [--json]

Lists the commits of the section that changed the document (including its deletion), newest first:
"<version> <date> <author>  <message>" per line. With --json: { entries: [{ version, message, author,
committer, parents }] }. Exit code 3 when the document (or the section) never existed.`,
  flags: { ...IDENTITY_FLAGS, limit: { type: 'string', description: 'at most N entries' }, ...STORE_FLAGS },
  maxPositionals: 1,
  async run(ctx) {
    const [identity, limit] = await checkUsage(
      () => identityFrom(ctx.values, ctx.positionals),
      () => positiveInt(ctx.values, 'limit'),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const { entries, compactedAt } = await withDocuments(ctx, async (docs, where) => {
      const h = await docs.history(identity, limit !== undefined ? { limit } : {});
      if (h.entries.length === 0) {
        throw (
          (await missingSection(docs, where)) ??
          new NotFoundResult(`document ${label(identity)} has no history in ${where}`)
        );
      }
      return h;
    });
    printResult(ctx.io, ctx.json, { entries, ...(compactedAt ? { compactedAt } : {}) }, () =>
      entries.map((e) => `${e.version} ${e.author.date} ${e.author.name}  ${e.message.split('\n')[0]}`).join('\n'),
    );
    // The history ends at a compaction root: say that older versions were removed (docs/retention.md).
    if (compactedAt && !ctx.json)
      ctx.io.stderr(`# history compacted at ${short(compactedAt)}: older versions were removed\n`);
    return EXIT.ok;
  },
};

export const changes: CliCommand = {
  name: 'doc changes',
  summary: 'list the documents added, modified and removed between two versions',
  usage: `usage: docdb doc changes --since SHA [--to SHA] [--namespace NS [--type TYPE]] [store flags] [--json]

Lists the documents that differ between two versions of the section (--to defaults to the current tip):
"A|M|D namespace/type/id" per line on stdout (added, modified, removed; D as git marks it), and
"# N added, N modified, N removed: from..to" on stderr. A version is a commit SHA of the section, in
full or its first 4+ characters (as docdb prints it). --since is the Action's "since" input (--from is
the same flag, as in the library). Only the parts of the tree that differ are read. With --json, the names of the Action's outputs: { from, to, changed, added,
modified, removed }: changed is true when any document differs; the lists hold { namespace, doc_type, id,
key, blobSha?, previousBlobSha? }. Exit code 3 when a version is not a commit of the section.`,
  flags: {
    since: { type: 'string', description: 'the older version (commit SHA of the section, or its first 4+ characters)' },
    from: { type: 'string', description: 'same as --since (the library calls it from)' },
    to: { type: 'string', description: 'the newer version (default: the tip)' },
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const namespace = str(ctx.values, 'namespace');
    const type = str(ctx.values, 'type');
    const [since, until] = await checkUsage(
      () => sinceArg(ctx.values),
      () => versionFlag(ctx.values, 'to'),
      () => {
        if (type !== undefined && namespace === undefined) throw new UsageError('--type needs --namespace', '--type');
      },
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const r = await withDocuments(ctx, async (docs) => {
      const from = (await resolveFlag(docs, since.flag, since.value)) as string;
      const to = await resolveFlag(docs, 'to', until);
      return docs.changes({
        from,
        ...(to ? { to } : {}),
        ...(namespace !== undefined ? { namespace } : {}),
        ...(type !== undefined ? { type } : {}),
      });
    });
    // One word per thing, as the Action's outputs: `changed` is the yes/no, `modified` the list.
    const changed = r.added.length + r.modified.length + r.removed.length > 0;
    const out = { from: r.from, to: r.to, changed, added: r.added, modified: r.modified, removed: r.removed };
    const name = (d: { namespace: string; doc_type: string; id: string }) => `${d.namespace}/${d.doc_type}/${d.id}`;
    printResult(ctx.io, ctx.json, out, () =>
      [
        ...r.added.map((d) => `A ${name(d)}`),
        ...r.modified.map((d) => `M ${name(d)}`),
        ...r.removed.map((d) => `D ${name(d)}`),
      ].join('\n'),
    );
    if (!ctx.json) {
      ctx.io.stderr(
        `# ${r.added.length} added, ${r.modified.length} modified, ${r.removed.length} removed: ${r.from}..${r.to}\n`,
      );
    }
    return EXIT.ok;
  },
};

/** `--since` (or its alias `--from`): required, once; which of the two was given, for messages. */
function sinceArg(values: FlagValues): { flag: string; value: string } {
  const since = versionFlag(values, 'since');
  const from = versionFlag(values, 'from');
  if (since !== undefined && from !== undefined) {
    throw new UsageError('give --since or --from, not both (they are the same flag)', '--since');
  }
  if (since === undefined && from === undefined) {
    throw new UsageError('--since is required: the version to compare from', '--since');
  }
  return since !== undefined ? { flag: 'since', value: since } : { flag: 'from', value: from as string };
}
