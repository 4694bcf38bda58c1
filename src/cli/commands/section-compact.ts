/**
 * `docdb section compact`: replace the section's older history by one root commit, keeping what the
 * retention policy says (docs/retention.md). Works on every store; on GitHub it paces itself within the
 * content-creation limits and needs a token that may push (the move is GraphQL `updateRefs`).
 */

import { appendAll } from '../../core/arrays.js';
import type { RetentionPolicy } from '../../retention/index.js';
import { compactSection } from '../../retention/index.js';
import { checkUsage, type FlagValues, positiveInt, str } from '../args.js';
import type { CliCommand } from '../command.js';
import { EXIT, UsageError, withAdvice } from '../io.js';
import { checkStoreFlags, openStore, STORE_FLAGS } from '../store-factory.js';
import { short } from './doc-common.js';

const THIN = ['day', 'week'] as const;

/** `--thin`, when given (day or week). */
function thinFrom(values: FlagValues): { thin?: 'day' | 'week' } {
  const thin = str(values, 'thin');
  if (thin === undefined) return {};
  if (!THIN.includes(thin as (typeof THIN)[number])) {
    throw new UsageError(`--thin must be day or week, got ${JSON.stringify(thin)}`, '--thin');
  }
  return { thin: thin as 'day' | 'week' };
}

/** `--keep-commits` and `--keep-days` (at least one: a compaction that keeps nothing is refused). */
function keepFrom(values: FlagValues): RetentionPolicy {
  const keepCommits = positiveInt(values, 'keep-commits');
  const keepDays = positiveInt(values, 'keep-days');
  if (keepCommits === undefined && keepDays === undefined) {
    throw new UsageError(
      'a compaction that keeps nothing is refused: give --keep-commits N and/or --keep-days D (--thin only thins what they do not keep)',
      '--keep-commits',
    );
  }
  return { ...(keepCommits !== undefined ? { keepCommits } : {}), ...(keepDays !== undefined ? { keepDays } : {}) };
}

export const compact: CliCommand = {
  name: 'section compact',
  summary: 'drop old history: keep the last N commits and/or D days (older history thinned or removed)',
  usage: `usage: docdb section compact (--keep-commits N | --keep-days D) [--thin day|week] [store flags] [--json]

Replaces the section's older history by one root commit holding the tree of the oldest kept version;
the kept commits are re-created on it with the same trees, authors and messages, plus a trailer
"Docdb-Compacted-From: <original SHA>". A commit is kept when it is one of the last N, or was committed
in the last D days; with --thin the older history keeps one commit per UTC day or ISO week instead of
none. The ref moves with a compare-and-swap: a write that lands meanwhile is re-created too (never
lost), or the compaction gives up with the section as the writers left it.

Versions that are not kept disappear: a reader pinned to one gets an error naming the kept commit with
the same tree, when there is one. On GitHub the space is freed only after GitHub's own garbage
collection; compaction needs the GraphQL updateRefs mutation and a token that may push, and paces itself
within GitHub's content-creation limits (80 a minute, 500 an hour). Prints the new tip; with --json:
{ compacted, previousVersion, version, kept, removed, attempts, requests }.`,
  flags: {
    'keep-commits': { type: 'string', description: 'keep the last N commits (N >= 1)' },
    'keep-days': { type: 'string', description: 'keep the commits of the last D days (D >= 1)' },
    thin: { type: 'string', description: 'thin older history to one commit per day or week (day | week)' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const [keep, thin, { kind }] = await checkUsage(
      () => keepFrom(ctx.values),
      () => thinFrom(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const policy: RetentionPolicy = { ...keep, ...thin };
    const opened = await openStore(ctx.values, ctx.io);
    appendAll(ctx.secrets, opened.secrets);
    try {
      // Only GitHub's API limits content creation; a git remote takes one push, a local store none.
      const r = await compactSection(opened.store, policy, kind === 'api' ? {} : { pacing: false });
      if (ctx.json) {
        const { compacted, previousVersion, version, kept, removed, attempts, requests } = r;
        ctx.io.stdout(
          `${JSON.stringify({ compacted, previousVersion, version, kept, removed, attempts, requests })}\n`,
        );
        return EXIT.ok;
      }
      if (r.version) ctx.io.stdout(`${r.version}\n`);
      ctx.io.stderr(
        r.compacted
          ? `compacted ${opened.where}: ${r.kept} commits kept${r.removed === null ? '' : `, ${r.removed} removed`} (was ${short(r.previousVersion)}, now ${short(r.version)}${r.attempts > 1 ? `; ${r.attempts - 1} concurrent write(s) re-created` : ''})\n`
          : `nothing to compact in ${opened.where}: its history already fits the policy (version ${short(r.version)})\n`,
      );
      return EXIT.ok;
    } catch (e) {
      throw withAdvice(e, opened.advise?.(e));
    } finally {
      await opened.close();
    }
  },
};
