/**
 * The Action's inputs (names are the public interface, see action.yml and docs/action.md), read and
 * validated before any request is made.
 */
import { InvalidConfig } from '../core/errors.js';
import { ACTION_INPUT_NAMES, type InputNames } from '../core/input-names.js';
import { RESERVED_REF_SPACES, reservedSpaceProblem } from '../core/refname.js';
import { DEFAULT_REDUCER_TIMEOUT_SECONDS } from '../projection/reducers/index.js';
import { parseShard, type Shard } from '../projection/run/index.js';
import { isLoopbackHost, REPO_RE } from '../projection/spec/index.js';
import { DEFAULT_RETRY_CONCURRENT_WRITES } from '../stores/remote-api/config.js';
import { type FeedInputs, readFeedInputs } from './feed-inputs.js';
import { type MigrateInputs, readMigrateInputs } from './migrate-inputs.js';
import { type QueryInputs, readQueryInputs } from './query-inputs.js';
import { type ReviewInputs, readReviewInputs } from './review-inputs.js';

export const MODES = [
  'project',
  'backfill',
  'read',
  'dry-run',
  'changes',
  'export',
  'query',
  'merge',
  'compact',
  'migrate',
  'review',
  'review-publish',
  'review-cleanup',
] as const;
export const SHARD_COMMITS = ['direct', 'merge'] as const;
/** GitHub's limit on a repository_dispatch `event_type` (REST "Create a repository dispatch event"). */
export const MAX_EVENT_TYPE = 100;
export const THIN = ['day', 'week'] as const;
export const EXPORT_FORMATS = ['jsonl', 'files'] as const;
export type ActionMode = (typeof MODES)[number];

export interface ActionInputs {
  spec: string;
  token: string;
  /** Target repository `owner/name` holding the section ref. */
  repository: string;
  root: string;
  section: string;
  apiUrl: string;
  mode: ActionMode;
  projections: string[];
  namespace: string;
  type: string;
  id: string;
  version: string;
  /** mode changes: the version to report changes since. */
  since: string;
  /** mode export: where to write, relative to the workspace. */
  exportPath: string;
  /** mode export: JSON Lines in one file, or one file per document under a directory. */
  exportFormat: (typeof EXPORT_FORMATS)[number];
  retryConcurrentWrites: number;
  commitMessage: string;
  /** `shard: i/n` (undefined: one job projects everything). */
  shard: Shard | undefined;
  /**
   * `shard-commit`: `direct` (every shard commits to the section, racing) or `merge` (each shard writes its own
   * ref; a final `mode: merge` folds them in one commit).
   */
  shardCommit?: (typeof SHARD_COMMITS)[number];
  /** mode merge: how many shards the run has (`shards: n`); 0 when not given. */
  shards?: number;
  /** `notify`: the repository_dispatch event type sent after a commit that changed something ('' = off). */
  notify?: string;
  /** `notify-repository`: where the event goes (default the target repository). */
  notifyRepository?: string;
  /** Stop before a source request when this many requests (points for GraphQL) or fewer are left; 0 = never. */
  minRateLimit: number;
  /** Seconds one call of a custom reducer may take before the run fails (`reducer-timeout`). */
  reducerTimeout?: number;
  /** mode query: the clauses and options (undefined in every other mode). */
  query?: QueryInputs;
  /**
   * `quarantine`: a run its expectations refuse writes its would-be commit to
   * `refs/<root>/<section>.quarantine/<run>` (docs/quarantine.md); undefined: as the spec's `quarantine:` says.
   */
  quarantine?: boolean;
  /** mode migrate: the operations and options (undefined in every other mode). */
  migrate?: MigrateInputs;
  /** mode review, review-publish, review-cleanup: the pull request and where the review goes (review-inputs.ts). */
  review?: ReviewInputs;
  /** mode project, backfill, merge: the Atom feed to bring up to date after the run (feed-inputs.ts). */
  feed?: FeedInputs;
  /** mode compact: the retention policy (`keep-commits`, `keep-days`, `thin`; docs/retention.md). */
  retention?: { keepCommits?: number; keepDays?: number; thin?: (typeof THIN)[number] };
}

/** Reads one input the way `@actions/core.getInput` does (trimmed, '' when unset). */
export type InputReader = (name: string) => string;

const SHA_RE = /^[0-9a-fA-F]{4,40}$/;
const RESERVED_ALLOWED_TEXT = `no component ending in ${RESERVED_REF_SPACES.map((r) => r.suffix).join(', ')}`;

/**
 * Every input failure: names the input (in the caller's vocabulary: `input "mode"` in the Action, `--mode`
 * in the CLI), says what is wrong and, where it helps, what is allowed.
 */
function failWith(names: InputNames) {
  return (field: string, message: string, allowed?: string): never => {
    throw new InvalidConfig(field, `${names.label(field)}: ${message}`, allowed ? { allowed } : {});
  };
}

type Bad = ReturnType<typeof failWith>;

/**
 * Read and validate every input. `env` supplies the runner's defaults (`GITHUB_REPOSITORY`,
 * `GITHUB_API_URL`) for inputs left empty; `names` is how messages name an input (default the Action's).
 *
 * @example
 * const inputs = readInputs((n) => core.getInput(n), process.env);
 */
export function readInputs(
  get: InputReader,
  env: Record<string, string | undefined> = {},
  names: InputNames = ACTION_INPUT_NAMES,
): ActionInputs {
  const bad = failWith(names);
  const mode = modeInput(get, bad);
  const repository = repositoryInput(get, env, bad);
  const apiUrl = apiUrlInput(get, env, bad);
  const reducerTimeout = reducerTimeoutInput(get, bad);
  const rcw = retryConcurrentWritesInput(get, bad);
  const minRateLimit = minRateLimitInput(get, bad);
  const shardText = get('shard');
  const shard = shardText ? parseShard(shardText, names) : undefined;
  const version = shaInput(get, 'version', '', bad);
  const since = shaInput(get, 'since', ' (a version output of an earlier step)', bad);
  const inputs: ActionInputs = {
    spec: get('spec') || '.github/docdb.yml',
    token: get('token'),
    repository,
    root: get('root') || 'docdb',
    section: get('section') || 'documents',
    apiUrl,
    mode,
    projections: get('projections')
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter(Boolean),
    namespace: get('namespace'),
    type: get('type'),
    id: get('id'),
    version,
    since,
    exportPath: get('export-path') || 'docdb-export.jsonl',
    exportFormat: (get('export-format') || 'jsonl') as ActionInputs['exportFormat'],
    retryConcurrentWrites: Number(rcw),
    commitMessage: get('commit-message'),
    shard,
    shardCommit: (get('shard-commit') || 'direct') as ActionInputs['shardCommit'],
    shards: shardsInput(get, bad),
    notify: get('notify'),
    notifyRepository: get('notify-repository') || repository,
    minRateLimit: Number(minRateLimit),
    reducerTimeout: Number(reducerTimeout),
    ...quarantineInput(get, mode, bad),
    ...retentionInputs(get, mode, bad),
  };
  const query = readQueryInputs(get, mode, names);
  if (query) inputs.query = query;
  const migrate = readMigrateInputs(get, mode, names);
  if (migrate) inputs.migrate = migrate;
  const review = readReviewInputs(get, mode, names);
  if (review) inputs.review = review;
  const feed = readFeedInputs(get, inputs, names);
  if (feed) inputs.feed = feed;
  checkSectionInputs(inputs, bad);
  checkModeInputs(inputs, bad);
  checkShardInputs(inputs, bad);
  checkNotifyInputs(inputs, bad);
  return inputs;
}

/**
 * `root` and `section` name the section ref `refs/<root>/<section>`: neither may reach into a section's
 * reserved space (core/refname.ts RESERVED_REF_SPACES: `.shards/`, `.quarantine/`, `.previews/`), whose refs
 * docdb writes and deletes for a section; the refusal names the input.
 */
function checkSectionInputs(inputs: ActionInputs, bad: Bad): void {
  for (const field of ['root', 'section'] as const) {
    const problem = reservedSpaceProblem(inputs[field]);
    if (problem) bad(field, problem, RESERVED_ALLOWED_TEXT);
  }
}

function shardsInput(get: InputReader, bad: Bad): number {
  const text = get('shards');
  if (text && !/^[1-9][0-9]{0,2}$/.test(text))
    bad('shards', `${JSON.stringify(text)} must be a whole number from 1 to 256`, '1-256');
  const n = Number(text || 0);
  if (n > 256) bad('shards', `${JSON.stringify(text)} must be a whole number from 1 to 256`, '1-256');
  return n;
}

/** `shard-commit`, `shards` and `mode: merge` belong together. */
function checkShardInputs(inputs: ActionInputs, bad: Bad): void {
  const { mode, shard } = inputs;
  const shardCommit = inputs.shardCommit ?? 'direct';
  const shards = inputs.shards ?? 0;
  if (!SHARD_COMMITS.includes(shardCommit)) {
    bad(
      'shard-commit',
      `${JSON.stringify(shardCommit)} is not a way to commit shards; use direct or merge`,
      SHARD_COMMITS.join(', '),
    );
  }
  if (shardCommit === 'merge' && mode !== 'merge' && !shard) {
    bad('shard-commit', 'merge needs the shard input too (i/n: which shard this job projects)');
  }
  if (mode === 'merge') {
    if (!shards) bad('shards', 'is required with mode: merge (how many shards the matrix has, the n of shard: i/n)');
    if (shard) bad('shard', 'does not apply to mode: merge (it merges every shard 1..shards)');
  } else if (shards) bad('shards', `only applies to mode: merge (mode is ${mode})`);
}

/** `notify` is a repository_dispatch event type: 1–100 characters, GitHub's limit. */
function checkNotifyInputs(inputs: ActionInputs, bad: Bad): void {
  const notify = inputs.notify ?? '';
  const notifyRepository = inputs.notifyRepository ?? inputs.repository;
  if (notify.length > MAX_EVENT_TYPE) {
    bad(
      'notify',
      `is ${notify.length} characters long; a repository_dispatch event type has at most ${MAX_EVENT_TYPE}`,
      `1-${MAX_EVENT_TYPE} characters`,
    );
  }
  if (notify && inputs.shardCommit === 'merge' && inputs.mode !== 'merge') {
    bad(
      'notify',
      'belongs on the mode: merge job: with shard-commit: merge a shard commits to its own ref, not the section',
    );
  }
  if (notify && !['project', 'backfill', 'merge'].includes(inputs.mode)) {
    bad('notify', `only applies to mode: project, backfill and merge, the modes that commit (mode is ${inputs.mode})`);
  }
  if (notifyRepository !== inputs.repository && !REPO_RE.test(notifyRepository)) {
    bad('notify-repository', `${JSON.stringify(notifyRepository)} is not "owner/name"`, 'owner/name');
  }
  if (notifyRepository !== inputs.repository && !notify)
    bad('notify-repository', 'needs notify too (the event type to send)');
}

function modeInput(get: InputReader, bad: Bad): ActionMode {
  const mode = (get('mode') || 'project') as ActionMode;
  if (!MODES.includes(mode))
    bad('mode', `${JSON.stringify(mode)} is not a mode; use one of ${MODES.join(', ')}`, MODES.join(', '));
  return mode;
}

function repositoryInput(get: InputReader, env: Record<string, string | undefined>, bad: Bad): string {
  const repository = get('repository') || env.GITHUB_REPOSITORY || '';
  if (!repository)
    bad('repository', 'no target repository: set "repository: owner/name" (GITHUB_REPOSITORY is not set either)');
  if (!REPO_RE.test(repository)) bad('repository', `${JSON.stringify(repository)} is not "owner/name"`, 'owner/name');
  return repository;
}

function apiUrlInput(get: InputReader, env: Record<string, string | undefined>, bad: Bad): string {
  const apiUrl = (get('api-url') || env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  try {
    const u = new URL(apiUrl);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http(s)');
  } catch {
    bad(
      'api-url',
      `${JSON.stringify(apiUrl)} is not an http(s) URL (e.g. https://api.github.com or https://ghe.example.com/api/v3)`,
    );
  }
  // The store would refuse plain http to a remote host too, but naming its library option; say it here
  // in terms of this input (before any request).
  if (/^http:/i.test(apiUrl) && !isLoopbackHost(new URL(apiUrl).hostname)) {
    bad(
      'api-url',
      `${JSON.stringify(apiUrl)} uses plain http to a remote host, which would send the token in clear text; use https (http is accepted only for localhost, 127.0.0.1 and [::1])`,
      'https URL, or http to a loopback host',
    );
  }
  return apiUrl;
}

function reducerTimeoutInput(get: InputReader, bad: Bad): string {
  const reducerTimeout = get('reducer-timeout') || String(DEFAULT_REDUCER_TIMEOUT_SECONDS);
  if (!/^\d+$/.test(reducerTimeout) || Number(reducerTimeout) < 1 || Number(reducerTimeout) > 3600) {
    bad(
      'reducer-timeout',
      `${JSON.stringify(reducerTimeout)} must be a whole number of seconds from 1 to 3600`,
      '1-3600',
    );
  }
  return reducerTimeout;
}

function retryConcurrentWritesInput(get: InputReader, bad: Bad): string {
  const rcw = get('retry-concurrent-writes') || String(DEFAULT_RETRY_CONCURRENT_WRITES);
  if (!/^\d+$/.test(rcw) || Number(rcw) > 1000) {
    bad('retry-concurrent-writes', `${JSON.stringify(rcw)} must be a whole number from 0 to 1000`, '0-1000');
  }
  return rcw;
}

function minRateLimitInput(get: InputReader, bad: Bad): string {
  const minRateLimit = get('min-rate-limit') || '0';
  if (!/^\d+$/.test(minRateLimit)) {
    bad(
      'min-rate-limit',
      `${JSON.stringify(minRateLimit)} must be a whole number of requests (0 = no floor)`,
      '0 or more',
    );
  }
  return minRateLimit;
}

/**
 * A commit SHA input (`version`, `since`): empty, 40 hex digits, or an abbreviation of at least 4 (as
 * summaries and the CLI print them), resolved against the section in run-action.ts.
 */
function shaInput(get: InputReader, field: 'version' | 'since', hint: string, bad: Bad): string {
  const sha = get(field);
  if (sha && !SHA_RE.test(sha))
    bad(field, `${JSON.stringify(sha)} is not a commit SHA: 40 hex characters, or at least the first 4${hint}`);
  return sha.toLowerCase();
}

/** `quarantine`: true or false (empty: the spec decides); only the modes that commit a run take it. */
function quarantineInput(get: InputReader, mode: ActionMode, bad: Bad): Pick<ActionInputs, 'quarantine'> {
  const text = get('quarantine');
  if (text === '') return {};
  if (text !== 'true' && text !== 'false')
    bad('quarantine', `${JSON.stringify(text)} must be true or false`, 'true, false');
  if (mode !== 'project' && mode !== 'backfill') {
    bad(
      'quarantine',
      `only applies to mode: project and backfill, the modes whose commit expectations check (mode is ${mode})`,
    );
  }
  return { quarantine: text === 'true' };
}

/** `keep-commits`, `keep-days`, `thin`: only with mode compact, which needs a policy that keeps something. */
function retentionInputs(get: InputReader, mode: ActionMode, bad: Bad): Pick<ActionInputs, 'retention'> {
  const given = (['keep-commits', 'keep-days', 'thin'] as const).filter((n) => get(n) !== '');
  if (mode !== 'compact') {
    if (given.length > 0) bad(given[0]!, `only applies to mode: compact (mode is ${mode})`);
    return {};
  }
  const whole = (name: 'keep-commits' | 'keep-days') => {
    const v = get(name);
    if (v === '') return undefined;
    if (!/^[1-9]\d{0,8}$/.test(v)) bad(name, `${JSON.stringify(v)} must be a whole number of at least 1`, '1 or more');
    return Number(v);
  };
  const keepCommits = whole('keep-commits');
  const keepDays = whole('keep-days');
  const thin = get('thin');
  if (thin !== '' && !(THIN as readonly string[]).includes(thin))
    bad('thin', `${JSON.stringify(thin)} is not day or week`, 'day, week');
  if (keepCommits === undefined && keepDays === undefined) {
    bad(
      'keep-commits',
      'mode: compact needs keep-commits and/or keep-days: a compaction that keeps nothing is refused',
    );
  }
  return {
    retention: {
      ...(keepCommits !== undefined ? { keepCommits } : {}),
      ...(keepDays !== undefined ? { keepDays } : {}),
      ...(thin !== '' ? { thin: thin as (typeof THIN)[number] } : {}),
    },
  };
}

/** Inputs that only apply to, or are required by, some modes. */
function checkModeInputs(inputs: ActionInputs, bad: Bad): void {
  const { mode, version, since } = inputs;
  if (mode === 'read') {
    for (const f of ['namespace', 'type', 'id'] as const) {
      if (!inputs[f]) bad(f, `is required with mode: read (the document to read is namespace/type/id)`);
    }
  } else if (mode === 'query' && inputs.query?.search !== undefined) {
    // A search without `type` ranks every type of the namespace that has a search index.
    if (!inputs.namespace) bad('namespace', 'is required with mode: query and search (the namespace to search)');
  } else if (mode === 'query' || mode === 'migrate') {
    for (const f of ['namespace', 'type'] as const) {
      if (!inputs[f])
        bad(f, `is required with mode: ${mode} (the type whose documents to ${mode === 'query' ? 'find' : 'migrate'})`);
    }
  } else if (mode === 'changes' || mode === 'export') {
    if (mode === 'changes' && !since)
      bad('since', 'is required with mode: changes (the version to report changes since)');
    if (inputs.type && !inputs.namespace) bad('type', `needs namespace too with mode: ${mode}`);
  } else if (version) {
    bad('version', `only applies to mode: read, changes, export and query (mode is ${mode})`);
  }
  if (!EXPORT_FORMATS.includes(inputs.exportFormat)) {
    bad('export-format', `${JSON.stringify(inputs.exportFormat)} is not a format; use jsonl or files`, 'jsonl, files');
  }
  if (since && mode !== 'changes') bad('since', `only applies to mode: changes (mode is ${mode})`);
}
