/**
 * `docdb section feed --out FILE`: an Atom feed of the section's newest commits (src/export/feed/, docs/feed.md),
 * created, or brought up to date when FILE already holds this section's feed.
 */
import { appendAll } from '../../core/arrays.js';
import { InvalidConfig, NotFound } from '../../core/errors.js';
import { httpUrl } from '../../core/viewer-url.js';
import { DocumentStore } from '../../document/document-store.js';
import { ExportTargetError } from '../../export/errors.js';
import { DEFAULT_FEED_LIMIT, MAX_FEED_LIMIT, sectionFeed } from '../../export/feed/section-feed.js';
import { checkUsage, type FlagValues, positiveInt, str } from '../args.js';
import type { CliCommand } from '../command.js';
import { EXIT, NotFoundResult, printResult, UsageError, withAdvice } from '../io.js';
import { apiTarget, checkStoreFlags, openStore, STORE_FLAGS } from '../store-factory.js';
import { short } from './doc-common.js';

/** The library's option names as this command's flags. */
const OPTION_FLAGS: Record<string, string> = { limit: '--limit', viewerUrl: '--viewer-url', feedUrl: '--feed-url' };

interface FeedFlags {
  out: string;
  limit: number;
  viewerUrl?: string;
  feedUrl?: string;
}

/** The feed's own flags, checked before any I/O. */
function feedFlags(values: FlagValues): FeedFlags {
  const out = str(values, 'out');
  if (out === undefined)
    throw new UsageError('docdb section feed writes a file: give --out FILE (e.g. feed.xml)', '--out');
  const limit = positiveInt(values, 'limit') ?? DEFAULT_FEED_LIMIT;
  if (limit > MAX_FEED_LIMIT) {
    throw new UsageError(`--limit must be from 1 to ${MAX_FEED_LIMIT}, got ${limit}`, '--limit');
  }
  const flags: FeedFlags = { out, limit };
  for (const [flag, key] of [
    ['viewer-url', 'viewerUrl'],
    ['feed-url', 'feedUrl'],
  ] as const) {
    const v = str(values, flag);
    if (v === undefined) continue;
    if (httpUrl(v) === undefined) {
      throw new UsageError(
        `--${flag} must be an http(s) address (e.g. https://octo.github.io/data/${flag === 'feed-url' ? 'feed.xml' : ''}), got ${JSON.stringify(v)}`,
        `--${flag}`,
      );
    }
    flags[key] = v;
  }
  if (flags.viewerUrl !== undefined && values.refstore !== undefined && values.refstore !== 'api') {
    throw new UsageError(
      '--viewer-url links to the viewer, which reads GitHub: it needs --refstore api',
      '--viewer-url',
    );
  }
  return flags;
}

export const feed: CliCommand = {
  name: 'section feed',
  summary: 'an Atom feed of the section’s newest commits (one entry per commit: its counts and changes)',
  usage: `usage: docdb section feed --out FILE [--limit N] [--viewer-url URL] [--feed-url URL] [store flags] [--json]

Writes an Atom feed (RFC 4287) of the section's newest N commits (default ${DEFAULT_FEED_LIMIT}, at most ${MAX_FEED_LIMIT}) to FILE:
one entry per commit, titled with the documents it added, modified and removed per type, most-changed first
("+3 ~12 −1 github/repo"), dated by its committer date, by its author, its content the first 20 changes
by document ("and N more"). With --viewer-url (an http(s) address of the docdb viewer; --refstore api)
each entry links to the viewer's diff of its commit; --feed-url is where the feed will be published
(its rel="self" link).

Run again on the same FILE: FILE records the commit it holds. When the section has not moved, only the
section's ref is read (one request) and FILE is not rewritten; else only the new commits are read (each
costs the changes from its parent: a compare on GitHub) and the other entries come from FILE. FILE is
written beside and renamed into place. A FILE that is not a docdb feed, or holds another section's feed,
is refused and left as it was (exit 2). Prints the path; with --json: { version, mode, entries, read, path }.`,
  flags: {
    out: { type: 'string', description: 'the feed file to write (created, or brought up to date)' },
    limit: {
      type: 'string',
      description: `how many of the newest commits the feed holds (default ${DEFAULT_FEED_LIMIT})`,
    },
    'viewer-url': { type: 'string', description: 'an http(s) address of the docdb viewer: entries link to its diff' },
    'feed-url': { type: 'string', description: 'the http(s) address the feed is published at (rel="self")' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const [flags, { kind }] = await checkUsage(
      () => feedFlags(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const repository = kind === 'api' ? apiTarget(ctx.values, ctx.io.env).repository : undefined;
    const opened = await openStore(ctx.values, ctx.io);
    appendAll(ctx.secrets, opened.secrets);
    try {
      const r = await sectionFeed(new DocumentStore(opened.store), {
        file: flags.out,
        section: opened.where,
        limit: flags.limit,
        ...(repository !== undefined ? { repository } : {}),
        ...(flags.viewerUrl !== undefined ? { viewerUrl: flags.viewerUrl } : {}),
        ...(flags.feedUrl !== undefined ? { feedUrl: flags.feedUrl } : {}),
      });
      const { version, mode, entries, read, path } = r;
      printResult(ctx.io, ctx.json, { version, mode, entries, read, path }, () =>
        mode === 'unchanged'
          ? `${path} is up to date (${short(version)})`
          : `${entries} entr${entries === 1 ? 'y' : 'ies'} (${read} commit(s) read) → ${path} (${short(version)})`,
      );
      return EXIT.ok;
    } catch (e) {
      if (e instanceof ExportTargetError) throw new UsageError(`--out: ${e.message}`, '--out');
      if (e instanceof InvalidConfig) throw new UsageError(e.message, OPTION_FLAGS[String(e.data.field)]);
      if (e instanceof NotFound) throw new NotFoundResult(e.message);
      throw withAdvice(e, opened.advise?.(e));
    } finally {
      await opened.close();
    }
  },
};
