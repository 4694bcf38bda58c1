/**
 * What a run of projections is given (`RunOptions`) and reports (`RunReport`): the public shape of
 * `runProjections`, as the Action, the CLI and library users see it.
 */
import type { InputNames } from '../../core/input-names.js';
import type { RefStore, WriteResult } from '../../core/refstore.js';
import type { DocumentOp } from '../../document/document-store.js';
import type { TypeIndex } from '../../document/indexes/declaration.js';
import type { SourceClient } from '../sources/index.js';
import type { Spec } from '../spec/index.js';
import type { RunRefusal } from './guarded-write.js';
import type { ProjectionReport } from './projection-types.js';
import type { QuarantineTarget } from './quarantine-refs.js';
import type { TypeSchema } from './schema-files.js';
import type { Shard } from './shard.js';

export type RunMode = 'project' | 'backfill' | 'dry-run';

export interface RunOptions {
  spec: Spec;
  /** Octokit (or anything with `request`) used for the sources. */
  client: SourceClient;
  /** The section's RefStore (RemoteApiRefStore in the Action). */
  store: RefStore;
  /** `project` (incremental where possible), `backfill` (re-project everything), `dry-run` (no writes). */
  mode?: RunMode;
  /** Run only these projections (default all). */
  only?: readonly string[];
  /** Commit message (default summarises the run). */
  commitMessage?: string;
  /** API base URL; pagination links must stay on its origin. */
  apiUrl?: string;
  /** Directory custom reducer modules are resolved against (default: the spec file's directory). */
  baseDir?: string;
  /** Items per page for the sources (default 100). */
  perPage?: number;
  /** Progress lines. */
  log?: (line: string) => void;
  /** `shard: i/n`: project only the documents whose key hashes to this shard (see shard.ts). */
  shard?: Shard;
  /** `min-rate-limit`: stop (and commit nothing) before a source request when this many or fewer are left. */
  minRateLimit?: number;
  /**
   * Identity of the token the sources use — a hash, never the token. Turns on conditional reads, whose
   * ETags are stored under it (GitHub's ETags depend on the token).
   */
  tokenIdentity?: string;
  /** Directory `files` sources read from (default: the current directory). */
  workspace?: string;
  /** fetch for `http` sources (default global fetch). The GitHub token is never given to it. */
  fetch?: typeof globalThis.fetch;
  /** Wait between retries of `http` sources (default setTimeout; tests inject one). */
  sleep?: (ms: number) => Promise<void>;
  /** Environment `http` sources read secret headers from (default `process.env` where it exists). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Directory custom reducer modules must stay inside after symbolic links are resolved (default:
   * `workspace` when given, else `baseDir`).
   */
  confineReducersTo?: string;
  /** Milliseconds one custom reducer call may take (default 30 s); past it the run fails naming the projection. */
  reducerTimeoutMs?: number;
  /** Called around each projection's work (the Action opens a log group per projection). */
  onProjection?: { start(name: string): void; end(name: string): void };
  /**
   * Lines appended to the commit message as git trailers (e.g. `Docdb-Run: 123.1`). Two runs that produce
   * the same change then never create byte-identical commits, so exactly one of them reports `changed`.
   */
  trailers?: readonly string[];
  /**
   * A metadata write committed with the run even when no document changed (a shard writing its own ref
   * marks it finished this way: shard-refs.ts). Ignored by dry runs.
   */
  receipt?: DocumentOp;
  /** How messages name the run's settings (default the Action's inputs, `the "token" input`; the CLI passes its flags). */
  inputNames?: InputNames;
  /**
   * Quarantine (docs/quarantine.md): when the spec's expectations refuse the commit, write it to
   * `refs/<root>/<section>.quarantine/<id>` instead (the error's `data.refusal.quarantine` names it).
   * Keeps the run's changes in memory until the commit lands.
   */
  quarantine?: QuarantineTarget;
  /**
   * With `mode: 'dry-run'` (a pull-request review, issue 39): keep the would-be commit's operations and
   * evaluate its `schema:` and `expect:` on the tip as the commit would, writing nothing (`report.planned`).
   */
  evaluate?: boolean;
  /**
   * Refuse every custom reducer and `check:` module of the workspace, saying this reason (a review under
   * `pull_request_target`, where a fork's files may be in the workspace next to a write token); built-in
   * reducers still run.
   */
  refuseModules?: string;
}

/** A dry run's would-be commit (`RunOptions.evaluate`). */
export interface PlannedCommit {
  /** Its operations in commit order (state files last). */
  ops: readonly DocumentOp[];
  /** What the guarded write would refuse on the tip (null: it would be accepted). */
  refusal: RunRefusal | null;
  /** The declarations the commit carries (a preview commit writes them too). */
  indexes: readonly TypeIndex[];
  schemas: readonly TypeSchema[];
}

export interface RunReport {
  mode: RunMode;
  ref: string;
  projections: ProjectionReport[];
  /** True when a commit was made (always false for dry-run). */
  changed: boolean;
  /** Section tip after the run. */
  version: string | null;
  previousVersion: string | null;
  /** Keys written / deleted (for dry-run: that would be). Includes `_docdb/state/…` metadata keys. */
  written: string[];
  deleted: string[];
  /** Documents that were already up to date. */
  unchanged: number;
  /** Document keys added, changed or removed (metadata keys excluded). */
  keys: string[];
  /** The store's write result, when a commit was attempted. */
  write?: WriteResult;
  /** The shard this run projected, if any. */
  shard?: Shard;
  /** A dry run with `evaluate`: the would-be commit and its evaluation. */
  planned?: PlannedCommit;
}
