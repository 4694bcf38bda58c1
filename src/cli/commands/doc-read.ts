/** `docdb doc get`, `doc list`, `doc history`: reads through DocumentStore on the chosen store. */
import { type FlagValues, positiveInt, str, versionFlag } from '../args.js';
import type { CliCommand } from '../command.js';
import { EXIT, NotFoundResult, printResult, UsageError } from '../io.js';
import { IDENTITY_FLAGS, identityFrom, label, STORE_FLAGS, withDocuments } from './doc-common.js';

export const get: CliCommand = {
  name: 'doc get',
  summary: 'print one document envelope',
  usage: `usage: docdb doc get --namespace NS --type TYPE --id ID [--version SHA] [store flags] [--json]

Prints the document envelope { namespace, type, id, version, data } as JSON (indented; one line with --json,
which adds "etag"). The etag (the document's blob SHA, also printed on stderr) is what doc put/delete
--if-match expect. Without --version the read uses the section's current tip; with it, that commit of
the section ref. Exit code 3 when the document does not exist, or the version is not a commit of the section.`,
  flags: {
    ...IDENTITY_FLAGS,
    version: { type: 'string', description: 'read at this commit of the section (40-hex SHA)' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const identity = identityFrom(ctx.values);
    const version = versionFlag(ctx.values);
    const { envelope, etag } = await withDocuments(ctx, async (docs, where) => {
      const read = await docs.read(identity, version ? { version } : {});
      if (!read.document)
        throw new NotFoundResult(`document ${label(identity)} not found in ${where}${version ? ` at ${version}` : ''}`);
      return { envelope: read.document, etag: read.etag };
    });
    if (!ctx.json) ctx.io.stderr(`etag ${etag} (for --if-match)\n`);
    printResult(ctx.io, ctx.json, { ...envelope, etag }, () => JSON.stringify(envelope, null, 2));
    return EXIT.ok;
  },
};

export const list: CliCommand = {
  name: 'doc list',
  summary: 'list documents (optionally of one namespace and type)',
  usage: `usage: docdb doc list [--namespace NS] [--type TYPE] [--version SHA] [--limit N] [--cursor C] [store flags] [--json]

Lists documents in key order: one "namespace/type/id" per line on stdout; the count, the version listed
and the next page's cursor go to stderr as "# …" lines.
With --json: { documents: [{ namespace, doc_type, id, key, blobSha }], version, nextCursor }.
--limit pages the list; pass the printed cursor to --cursor for the next page.`,
  flags: {
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    version: { type: 'string', description: 'list at this commit of the section' },
    limit: { type: 'string', description: 'at most N documents per page' },
    cursor: { type: 'string', description: 'next page: the cursor printed by the previous page' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const namespace = str(ctx.values, 'namespace');
    const type = str(ctx.values, 'type');
    const version = versionFlag(ctx.values);
    const limit = positiveInt(ctx.values, 'limit');
    const cursor = str(ctx.values, 'cursor');
    const result = await withDocuments(ctx, (docs) =>
      docs.list({
        ...(namespace !== undefined ? { namespace } : {}),
        ...(type !== undefined ? { type } : {}),
        ...(version ? { version } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      }),
    );
    const { documents, nextCursor } = result;
    printResult(ctx.io, ctx.json, { documents, version: result.version, nextCursor }, () =>
      documents.map((d) => `${d.namespace}/${d.doc_type}/${d.id}`).join('\n'),
    );
    // Status lines go to stderr, so `docdb doc list | …` pipes only the documents.
    if (!ctx.json) {
      ctx.io.stderr(`# ${documents.length} document(s) at ${result.version ?? '(section does not exist yet)'}\n`);
      if (nextCursor) ctx.io.stderr(`# more: --cursor ${nextCursor}\n`);
    }
    return EXIT.ok;
  },
};

export const history: CliCommand = {
  name: 'doc history',
  summary: 'list the commits that changed a document, newest first',
  usage: `usage: docdb doc history --namespace NS --type TYPE --id ID [--limit N] [store flags] [--json]

Lists the commits of the section that changed the document (including its deletion), newest first:
"<version> <date> <author>  <message>" per line. With --json: { entries: [{ version, message, author,
committer, parents }] }. Exit code 3 when the document never existed.`,
  flags: { ...IDENTITY_FLAGS, limit: { type: 'string', description: 'at most N entries' }, ...STORE_FLAGS },
  async run(ctx) {
    const identity = identityFrom(ctx.values);
    const limit = positiveInt(ctx.values, 'limit');
    const { entries } = await withDocuments(ctx, async (docs, where) => {
      const h = await docs.history(identity, limit !== undefined ? { limit } : {});
      if (h.entries.length === 0) throw new NotFoundResult(`document ${label(identity)} has no history in ${where}`);
      return h;
    });
    printResult(ctx.io, ctx.json, { entries }, () =>
      entries.map((e) => `${e.version} ${e.author.date} ${e.author.name}  ${e.message.split('\n')[0]}`).join('\n'),
    );
    return EXIT.ok;
  },
};

export const changes: CliCommand = {
  name: 'doc changes',
  summary: 'list the documents added, changed and removed between two versions',
  usage: `usage: docdb doc changes --since SHA [--to SHA] [--namespace NS [--type TYPE]] [store flags] [--json]

Lists the documents that differ between two versions of the section (--to defaults to the current tip):
"A|M|D namespace/type/id" per line (added, modified, deleted) on stdout, and "# counts: from..to" on
stderr. --since is the Action's "since" input (--from is the same flag, as in the library). Only the parts of the
tree that differ are read. With --json: { from, to, added, changed, removed }, each a list of
{ namespace, doc_type, id, key, blobSha?, previousBlobSha? }. Exit code 3 when a version is not a commit
of the section.`,
  flags: {
    since: { type: 'string', description: 'the older version (40-hex commit SHA of the section)' },
    from: { type: 'string', description: 'same as --since (the library calls it from)' },
    to: { type: 'string', description: 'the newer version (default: the tip)' },
    namespace: IDENTITY_FLAGS.namespace!,
    type: IDENTITY_FLAGS.type!,
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const from = sinceArg(ctx.values);
    const to = versionArg(ctx.values, 'to');
    const namespace = str(ctx.values, 'namespace');
    const type = str(ctx.values, 'type');
    if (type !== undefined && namespace === undefined) throw new UsageError('--type needs --namespace', '--type');
    const r = await withDocuments(ctx, (docs) =>
      docs.changes({
        from,
        ...(to ? { to } : {}),
        ...(namespace !== undefined ? { namespace } : {}),
        ...(type !== undefined ? { type } : {}),
      }),
    );
    const out = { from: r.from, to: r.to, added: r.added, changed: r.changed, removed: r.removed };
    const name = (d: { namespace: string; doc_type: string; id: string }) => `${d.namespace}/${d.doc_type}/${d.id}`;
    printResult(ctx.io, ctx.json, out, () =>
      [
        ...r.added.map((d) => `A ${name(d)}`),
        ...r.changed.map((d) => `M ${name(d)}`),
        ...r.removed.map((d) => `D ${name(d)}`),
      ].join('\n'),
    );
    if (!ctx.json) {
      ctx.io.stderr(
        `# ${r.added.length} added, ${r.changed.length} changed, ${r.removed.length} removed: ${r.from}..${r.to}\n`,
      );
    }
    return EXIT.ok;
  },
};

/** `--since` (or its alias `--from`): required, once. */
function sinceArg(values: FlagValues): string {
  const since = versionArg(values, 'since');
  const from = versionArg(values, 'from');
  if (since !== undefined && from !== undefined) {
    throw new UsageError('give --since or --from, not both (they are the same flag)', '--since');
  }
  const v = since ?? from;
  if (v === undefined) throw new UsageError('--since is required: the version to compare from', '--since');
  return v;
}

/** A 40-hex version flag other than --version. */
function versionArg(values: FlagValues, flag: string): string | undefined {
  const v = str(values, flag);
  if (v !== undefined && !/^[0-9a-f]{40}$/.test(v)) {
    throw new UsageError(
      `--${flag} must be a 40-character lowercase hex commit SHA (as printed by docdb doc put or history), got ${JSON.stringify(v)}`,
      `--${flag}`,
    );
  }
  return v;
}
