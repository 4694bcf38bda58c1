/**
 * `docdb section compact`: replace the section's older history by one root commit, keeping what the
 * retention policy says (docs/retention.md). Works on every store; on GitHub it paces itself within the
 * content-creation limits and needs a token that may push (the move is GraphQL `updateRefs`).
 */
import { appendAll } from '../../core/arrays.js';
import type { CompactResult, RetentionPolicy } from '../../retention/index.js';
import { compactSection } from '../../retention/index.js';
import { checkUsage, type FlagValues, positiveInt, str } from '../args.js';
import type { CliCommand } from '../command.js';
import { EXIT, UsageError, withAdvice } from '../io.js';
import { checkStoreFlags, openStore, type RefStoreKind, STORE_FLAGS } from '../store-factory.js';
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

/** A duration for people: "1 h 2 min", "4 min". */
function duration(ms: number): string {
  const min = Math.ceil(ms / 60_000);
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}

/** The dry run's answer (stdout): what would be kept and removed, and what the compaction would take. */
function planText(where: string, kind: RefStoreKind, r: CompactResult): string {
  const { plan } = r;
  const head = `dry run, nothing written: ${where} at ${short(r.previousVersion)} has ${plan.listed} commit(s)`;
  if (plan.removed === 0) return `${head}; its history already fits the policy: nothing to compact\n`;
  const keep = `would keep ${plan.kept} and remove ${plan.removed}; oldest kept: ${short(plan.oldestKept.version)} of ${plan.oldestKept.date} (the new root, with its tree)`;
  const paced =
    plan.pacedMs > 0
      ? `at least ${duration(plan.pacedMs)} at GitHub's limits of 80 a minute and 500 an hour`
      : "within GitHub's limits without waiting";
  const cost =
    kind === 'api'
      ? `would take ${plan.githubRequests} requests on GitHub's API (${plan.contentCreating} content-creating: ${plan.kept} commits and the move), ${paced}`
      : `would create ${plan.kept} commits and move the ref once (a compare-and-swap; no GitHub API requests)`;
  return `${head}\n${keep}\n${cost}\n`;
}

/** The result line (stderr) of a compaction that ran. */
function resultText(where: string, r: CompactResult): string {
  if (!r.compacted) {
    return `nothing to compact in ${where}: its history already fits the policy (version ${short(r.version)})\n`;
  }
  const removed = r.removed === null ? '' : `, ${r.removed} removed`;
  const raced = r.attempts > 1 ? `; ${r.attempts - 1} concurrent write(s) re-created` : '';
  return `compacted ${where}: ${r.kept} commits kept${removed} (was ${short(r.previousVersion)}, now ${short(r.version)}${raced})\n`;
}

export const compact: CliCommand = {
  name: 'section compact',
  summary: 'drop old history: keep the last N commits and/or D days (older history thinned or removed)',
  usage: `usage: docdb section compact (--keep-commits N | --keep-days D) [--thin day|week] [--dry-run] [store flags] [--json]

Replaces the section's older history by one root commit holding the tree of the oldest kept version;
the kept commits are re-created on it with the same trees, authors and messages, plus a trailer
"Docdb-Compacted-From: <original SHA>". A commit is kept when it is one of the last N, or was committed
in the last D days; with --thin the older history keeps one commit per UTC day or ISO week instead of
none. The ref moves with a compare-and-swap: a write that lands meanwhile is re-created too (never
lost), or the compaction gives up with the section as the writers left it.

--dry-run lists the section and says what would be kept and removed (counts, the oldest kept commit)
and what the compaction would take (requests on GitHub and the time its limits impose); it writes
nothing.

Versions that are not kept disappear: reading one says "removed by the compaction at <tip> on <date>;
history kept from <root>", naming the kept commit with the same tree when there is one. On GitHub the
space is freed only after GitHub's own garbage collection; compaction needs the GraphQL updateRefs
mutation and a token that may push, and paces itself within GitHub's content-creation limits (80 a
minute, 500 an hour). The whole history is listed to count the removed commits (on GitHub one read
request per 100 commits). Prints the new tip, and the counts on stderr; with --json:
{ compacted, dryRun, previousVersion, version, kept, removed, attempts, requests, plan }.`,
  flags: {
    'keep-commits': { type: 'string', description: 'keep the last N commits (N >= 1)' },
    'keep-days': { type: 'string', description: 'keep the commits of the last D days (D >= 1)' },
    thin: { type: 'string', description: 'thin older history to one commit per day or week (day | week)' },
    'dry-run': {
      type: 'boolean',
      description: 'say what would be kept, removed and what it would take; write nothing',
    },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const [keep, thin, { kind }] = await checkUsage(
      () => keepFrom(ctx.values),
      () => thinFrom(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const policy: RetentionPolicy = { ...keep, ...thin };
    const dryRun = ctx.values['dry-run'] === true;
    const opened = await openStore(ctx.values, ctx.io);
    appendAll(ctx.secrets, opened.secrets);
    try {
      // Only GitHub's API limits content creation; a git remote takes one push, a local store none.
      const pacing = kind === 'api' ? {} : { pacing: false as const };
      const r = await compactSection(opened.store, policy, { ...pacing, count: true, dryRun });
      if (ctx.json) {
        const { compacted, previousVersion, version, kept, removed, attempts, requests, plan } = r;
        const out = { compacted, dryRun, previousVersion, version, kept, removed, attempts, requests, plan };
        ctx.io.stdout(`${JSON.stringify(out)}\n`);
      } else if (dryRun) {
        ctx.io.stdout(planText(opened.where, kind, r));
      } else {
        if (r.version) ctx.io.stdout(`${r.version}\n`);
        ctx.io.stderr(resultText(opened.where, r));
      }
      return EXIT.ok;
    } catch (e) {
      throw withAdvice(e, opened.advise?.(e));
    } finally {
      await opened.close();
    }
  },
};
