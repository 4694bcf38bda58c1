/**
 * What the Action's work is given besides its inputs (`ActionContext`: the host's log, workspace, fetch,
 * store…), what every mode works with (`ActionTools`) and what it gives back (`ActionResult`). A module of
 * types, shared by run-action.ts and the modes it dispatches to.
 */
import type { InputNames } from '../core/input-names.js';
import type { RefStore } from '../core/refstore.js';
import type { RunReport } from '../projection/run/index.js';
import type { SourceClient } from '../projection/sources/index.js';
import type { RefDeletion, RemoteApiRefStore } from '../stores/remote-api/index.js';
import type { Annotation } from './annotations.js';
import type { Meter } from './metered-fetch.js';
import type { SummaryInput } from './summary.js';

export interface ActionContext {
  /** Progress lines (the runner log). */
  log?: (line: string) => void;
  /** Directory relative paths (the spec) are resolved against (default: cwd = the workspace on runners). */
  workspace?: string;
  /** Web URL of the GitHub server for commit links (default `GITHUB_SERVER_URL` or https://github.com). */
  serverUrl?: string;
  /** Fetch implementation (tests); default global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Spacing of write requests in ms (default plugin-throttling's 1000 ms on github.com; 0 for loopback). */
  writeSpacingMs?: number;
  /** Environment `http` sources read secret headers from (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The section's store. Default: RemoteApiRefStore on `inputs.repository` over the run's Octokit (the
   * Action). `docdb project --refstore git|subprocess` passes a local git store here.
   */
  store?: RefStore;
  /**
   * The store on any ref of `inputs.repository` (`startAt`: RemoteApiRefStoreOptions.startAt), used for
   * the section and shard refs instead of the default RemoteApiRefStore over the run's Octokit (tests and
   * benchmarks: stores on a virtual clock). Shard refs need a store that deletes refs too.
   */
  storeOn?: (ref: string, startAt?: string) => RefStore & Pick<RemoteApiRefStore, 'deleteRefs'>;
  /** One line per HTTP request (method, URL without query secrets, status): `core.debug` in the Action. */
  debug?: (line: string) => void;
  /** Log grouping per projection (`core.startGroup`/`core.endGroup` in the Action). */
  group?: { start(name: string): void; end(): void };
  /**
   * The workflow run (`github.context.runId`/`runAttempt`), recorded as a `Docdb-Run` trailer in the commit
   * message. With a random `Docdb-Nonce` trailer it keeps two runs' commits from ever being identical.
   */
  run?: { id?: number | undefined; attempt?: number | undefined };
  /** How messages name the settings: the Action's inputs (default), or the CLI's flags (`docdb project`). */
  inputNames?: InputNames;
  /**
   * The workflow's event (`GITHUB_EVENT_NAME`, `GITHUB_EVENT_PATH`): the review modes take the pull request
   * from it (review-event.ts reads the payload as untrusted JSON).
   */
  event?: { name?: string | undefined; path?: string | undefined };
}

export interface ActionResult {
  outputs: Record<string, string>;
  /** Markdown for the job summary. */
  summary: string;
  report?: RunReport;
  /** The summary as plain text for a terminal, when the mode has no `summaryInput` (mode merge). */
  text?: string;
  /** What `summary` was rendered from (projection modes), so another entry point can render it its own way. */
  summaryInput?: SummaryInput;
  /**
   * The run failed after all, with its outputs and summary written (a commit refused by a `schema:` or
   * `expect:`): the entry point reports `message` and `annotations` and exits with a failure.
   */
  failed?: { message: string; annotations: Annotation[] };
}

/** What run-action.ts sets up for every mode: one metered Octokit for sources and store, and the section. */
export interface ActionTools {
  /** The run's Octokit (sources read through it; the default store writes through it). */
  client: SourceClient;
  store: RefStore;
  /** The section ref, `refs/<root>/<section>`. */
  ref: string;
  meter: Meter;
  log: (line: string) => void;
  /**
   * A store on another ref of the same repository (starting at `startAt` while that ref does not exist:
   * RemoteApiRefStoreOptions.startAt), and the compare-and-delete of whole refs (`shard-commit: merge`,
   * `mode: merge`); absent when the context brought its own store (a local git section).
   */
  shardRefs?: {
    /** `pinned`: the author and date of the commits the store creates (a review preview's: preview-write.ts). */
    storeOn(ref: string, startAt?: string, pinned?: { author: { name: string; email: string }; date: Date }): RefStore;
    deleteRefs(refs: readonly RefDeletion[]): Promise<void>;
    /** The refs under a prefix with their commits (RemoteApiRefStore.listRefs), when the store has it. */
    listRefs?(prefix: string): Promise<{ ref: string; oid: string }[]>;
  };
}
