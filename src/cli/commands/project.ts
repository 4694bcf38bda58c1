/**
 * `docdb project`: run a projection spec locally with the very engine the Action uses (readInputs →
 * runAction → runProjections): progress on stderr, a plain summary on stdout (the Markdown job summary
 * under GitHub Actions); messages name the CLI's flags, not the Action's inputs. The section may
 * live in any store (`--refstore`); the sources are always read through the GitHub API (`--repo`,
 * `--api-url`, the token).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readInputs } from '../../action/inputs.js';
import { runAction } from '../../action/run-action.js';
import { appendAll } from '../../core/arrays.js';
import { InvalidConfig } from '../../core/errors.js';
import { checkUsage, str } from '../args.js';
import type { CliCommand } from '../command.js';
import { CLI_INPUT_NAMES, INPUT_FLAGS } from '../input-flags.js';
import { EXIT, UsageError, withAdvice } from '../io.js';
import { renderTextSummary } from '../run-summary.js';
import { apiAdvice, apiTarget, checkStoreFlags, type OpenedStore, openStore, STORE_FLAGS } from '../store-factory.js';
import { ghHostFor, resolveToken } from '../token.js';
import { underActions } from '../workflow-commands.js';

const MODES = ['project', 'backfill', 'dry-run', 'merge', 'review'] as const;
const DEFAULT_SPEC = '.github/docdb.yml';

export const command: CliCommand = {
  name: 'project',
  summary: "run a projection spec locally with the Action's engine",
  usage: `usage: docdb project [--spec FILE] [--mode project|backfill|dry-run|merge|review] [--projections a,b] [--commit-message M]
                     [--shard i/n [--shard-commit direct|merge]] [--shards N] [--notify TYPE [--notify-repository O/R]]
                     [--min-rate-limit N] [--quarantine] [--pull-request N [--viewer-url URL] [--review-file F]]
                     [store flags] [--json]

Runs the projections of a spec (default .github/docdb.yml) exactly as the GitHub Action does: sources
are read through the GitHub API (--repo is the default source repository and, with --refstore api, the
repository holding the section), documents are committed to the section in one commit. Progress goes
to stderr, a summary to stdout: counts per projection, the keys removed (prune), the new version and
the rate limit left — under GitHub Actions (GITHUB_ACTIONS=true) the Markdown job summary instead, for
>> "$GITHUB_STEP_SUMMARY". With --json: { outputs, report } (the Action's step outputs).
--mode dry-run computes everything and writes nothing. --shard i/n projects only the documents whose
key hashes to shard i of n (one job of a fan-out; see docs/projection-spec.md), --min-rate-limit stops
before the rate limit left would fall below N, committing nothing. --shard-commit merge makes each shard
write its own ref (refs/<root>/<section>.shards/<i>) instead of racing for the section; --mode merge
--shards N then folds the N shard refs of this run (GITHUB_RUN_ID) into the section in one commit and
deletes them (docs/action.md "Shards that do not race"). --notify TYPE sends a repository_dispatch event
after a commit that changed something. A commit refused by a spec's schema: or expect: fails the run (exit
1) naming each violation and its spec line, nothing written; with --quarantine (or the spec's quarantine:
true) a commit refused by expectations is written to refs/<root>/<section>.quarantine/<id> instead, for
docdb section quarantine list|promote|drop (docs/quarantine.md). --mode review --pull-request N reviews
what pull request N of --repo would do to the data, as the Action's mode: review does (docs/action.md
"Review data changes in pull requests"): the spec in the working directory is the pull request's (check
out its branch first); a dry run against the section tip with its expectations evaluated, the preview ref
refs/<root>/<section>.previews/pr-<N> for a same-repository pull request, the sticky comment and the
check run (or a commit status with a personal token) on the pull request; the section never moves; exit 1
when an expectation fails. --review-file F also writes the review as JSON.`,
  flags: {
    spec: { type: 'string', description: 'projection spec file (default .github/docdb.yml)' },
    mode: { type: 'string', description: 'project (default) | backfill | dry-run | merge | review' },
    projections: { type: 'string', description: 'comma-separated projection names to run (default all)' },
    'commit-message': { type: 'string', description: 'commit message (default summarises the run)' },
    shard: { type: 'string', description: 'i/n: project only shard i of n (1 ≤ i ≤ n), as the Action input shard' },
    'shard-commit': { type: 'string', description: 'direct (default) | merge: each shard writes its own ref' },
    shards: { type: 'string', description: '--mode merge: how many shards to merge (the n of --shard i/n)' },
    notify: {
      type: 'string',
      description: 'repository_dispatch event type sent after a commit that changed something',
    },
    'notify-repository': { type: 'string', description: 'owner/name the --notify event goes to (default --repo)' },
    'min-rate-limit': { type: 'string', description: 'stop before the rate limit left falls below N (default 0)' },
    quarantine: {
      type: 'boolean',
      description: 'a commit refused by expectations goes to refs/<root>/<section>.quarantine/<id> instead',
    },
    'pull-request': { type: 'string', description: '--mode review: the pull request to review (its number)' },
    'viewer-url': { type: 'string', description: '--mode review: the docdb viewer the comment links to (http(s))' },
    'review-file': { type: 'string', description: '--mode review: also write the review as JSON to this file' },
    ...STORE_FLAGS,
  },
  async run({ values, io, json, secrets }) {
    const mode = str(values, 'mode') ?? 'project';
    // Every problem of the command line at once, before any request: mode, store flags, --repo, the spec.
    const [, { kind, ref }, { repository, apiUrl, apiUrlFrom }] = await checkUsage(
      () => {
        if (!(MODES as readonly string[]).includes(mode)) {
          throw new UsageError(`--mode ${JSON.stringify(mode)} is not a mode (allowed: ${MODES.join(', ')})`, '--mode');
        }
        // A terminal has no pull_request event: the pull request is named.
        if (mode === 'review' && str(values, 'pull-request') === undefined) {
          throw new UsageError('--mode review needs --pull-request N (the pull request to review)', '--pull-request');
        }
      },
      // The section's store flags; --repo/--api-url are the sources' (checked next) with any store.
      () => checkStoreFlags({ ...values, repo: undefined, 'api-url': undefined }, io.env, { target: false }),
      () => apiTarget(values, io.env),
      () => specExists(str(values, 'spec'), io.cwd),
    );
    const { token, source: tokenSource } = await resolveToken({
      tokenEnv: str(values, 'token-env'),
      env: io.env,
      ghHost: ghHostFor(apiUrl),
    });
    if (token) secrets.push(token);
    // refs/<root>/<section>: the Action's inputs name the section by root and section.
    const [, root, ...section] = ref.split('/');
    const given: Record<string, string | undefined> = {
      spec: str(values, 'spec'),
      token,
      repository,
      'api-url': apiUrl,
      root,
      section: section.join('/'),
      mode,
      projections: str(values, 'projections'),
      'commit-message': str(values, 'commit-message'),
      shard: str(values, 'shard'),
      'shard-commit': str(values, 'shard-commit'),
      shards: str(values, 'shards'),
      notify: str(values, 'notify'),
      'notify-repository': str(values, 'notify-repository'),
      'min-rate-limit': str(values, 'min-rate-limit'),
      quarantine: values.quarantine === true ? 'true' : undefined,
      'pull-request': str(values, 'pull-request'),
      'viewer-url': str(values, 'viewer-url'),
      'review-file': str(values, 'review-file'),
    };
    const inputs = (() => {
      try {
        return readInputs((name) => given[name] ?? '', {}, CLI_INPUT_NAMES);
      } catch (e) {
        // The message already names the flag (CLI_INPUT_NAMES); a bad flag value is a usage error.
        if (e instanceof InvalidConfig) throw new UsageError(e.message, INPUT_FLAGS[String(e.data.field)]);
        throw e;
      }
    })();
    let opened: OpenedStore | undefined;
    if (kind !== 'api') {
      // The section's store; --repo/--api-url/--token-env above are for the sources.
      opened = await openStore({ ...values, repo: undefined, 'api-url': undefined, 'token-env': undefined }, io);
      appendAll(secrets, opened.secrets);
    }
    try {
      const { outputs, summary, summaryInput, report, text, failed } = await runAction(inputs, {
        log: (line) => io.stderr(`${line}\n`),
        workspace: io.cwd,
        inputNames: CLI_INPUT_NAMES,
        // In a workflow step the run id tags shard refs (--shard-commit merge) as the Action's do.
        run: { id: Number(io.env.GITHUB_RUN_ID) || undefined, attempt: Number(io.env.GITHUB_RUN_ATTEMPT) || undefined },
        ...(opened ? { store: opened.store } : {}),
      });
      if (json) io.stdout(`${JSON.stringify({ outputs, report })}\n`);
      // The Markdown job summary only means something on a runner (e.g. `>> "$GITHUB_STEP_SUMMARY"`).
      else if (underActions(io.env)) io.stdout(summary);
      else io.stdout(summaryInput ? renderTextSummary(summaryInput) : (text ?? summary));
      if (!failed) return EXIT.ok;
      // Refused by a schema or expectations: each violation with its spec line, then the reason.
      for (const a of failed.annotations) io.stderr(`${a.properties.file}:${a.properties.startLine}: ${a.message}\n`);
      io.stderr(`error: ${failed.message}\n`);
      return EXIT.error;
    } catch (e) {
      // The way out, as the doc commands say it: the section's store first, else the API the sources read.
      throw withAdvice(e, opened?.advise?.(e) ?? apiAdvice(e, { apiUrl, apiUrlFrom, tokenSource }));
    } finally {
      await opened?.close();
    }
  },
};

/**
 * A spec file that is not there is a problem of the command line (reported with the others); any other
 * problem with it (unreadable, outside the workspace, invalid) is the spec loader's to report.
 */
async function specExists(spec: string | undefined, cwd: string): Promise<void> {
  const path = resolve(cwd, spec ?? DEFAULT_SPEC);
  const missing = await stat(path).then(
    () => false,
    (e: NodeJS.ErrnoException) => e.code === 'ENOENT',
  );
  if (missing) {
    throw new UsageError(
      `projection spec ${spec ?? DEFAULT_SPEC} not found: create it (see docs/projection-spec.md, or docdb init) or set --spec to its path`,
      '--spec',
    );
  }
}
