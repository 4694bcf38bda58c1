/**
 * What every view gets from the page frame (src/viewer/app.ts). A view is a function that renders into
 * its root and returns when its first screen is drawn; it reads only through `ctx.client` (the public
 * `docdb/browser` client, as any page would) and changes the page only through `ctx.navigate` (the URL).
 */
import type { DocDbClient, HistoryEntry } from '../browser/index.js';
import type { ViewState } from './state.js';

/** The verdict of `ctx.budget.check`: may the view spend `requests` now? */
export interface BudgetVerdict {
  ok: boolean;
  /** Requests left in the current rate-limit window (undefined before the first answer). */
  remaining?: number;
  /** When `ok` is false: the sentence the page shows (what it would cost, what is left, the choices). */
  message?: string;
}

/** One way out of a budget warning: a labelled button that runs `run`. */
export interface BudgetChoice {
  label: string;
  run(): void;
}

/** How many recent commits the frame reads (`ctx.recentCommits()`): one page. */
export const RECENT_COMMITS = 20;

export interface ViewContext {
  /** The state this view renders (from the URL). */
  readonly state: ViewState;
  /**
   * The section version this view reads: `state.at`, else the tip read when the visit began (a ref that does
   * not exist is said by the frame: no view is drawn for it). Pin every read to it (`{ version: ctx.version }`): a read without a version
   * re-reads the ref (one more request each), and the views of one screen must agree on one version.
   */
  readonly version: string;
  /** A client for `state.repo` and `state.ref` (cached per repo and ref; IndexedDB cache when available). */
  readonly client: DocDbClient;
  /** A client for another ref of the same repository (file view: `refs/heads/main`). */
  clientFor(ref: string): Promise<DocDbClient>;
  /** Go to another state: push a history entry (back/forward work), or replace the current one. */
  navigate(patch: Partial<ViewState>, options?: { replace?: boolean }): void;
  /** The `?…` link of a state (for real `<a href>` links the visitor can open in a new tab). */
  link(patch: Partial<ViewState>): string;
  /** Aborted when the view is replaced: stop reading, stop timers. */
  readonly signal: AbortSignal;
  /** Whether the visitor gave a token (anonymous: 60 requests an hour on GitHub). */
  hasToken(): boolean;
  /**
   * Before an action that costs `requests`: compares with the rate limit left. Anonymous visitors get
   * `ok: false` and a message when the action would exceed what is left (the view then offers to sample).
   */
  budget: {
    check(requests: number, what: string): BudgetVerdict;
    /**
     * The warning to show when `check` said no: the verdict's sentence and one button per choice (e.g.
     * "Sample 20 versions"), plus "Add a token" which opens the token panel. Keyboard-usable, `role=alert`.
     */
    warning(verdict: BudgetVerdict, choices?: readonly BudgetChoice[]): HTMLElement;
    /**
     * Where a read failed: for a rate limit, the notice that says which limit stopped it (the hourly one:
     * when it resets (local time with its zone, src/viewer/dates.ts), and "Add a token"; a secondary one: when to try again); undefined for
     * any other error (the view says it as before).
     */
    stopped(error: unknown): HTMLElement | undefined;
  };
  /** The GitHub page of a commit of this repository (derived from the API URL), or undefined for a host without one. */
  commitUrl(sha: string): string | undefined;
  /**
   * The section's recent commits, newest first (`refStore.commits({ limit: RECENT_COMMITS })`): read once
   * per client and shared by the frame's version picker and the overview (one request; a 304 on reload).
   * Empty for a store without `commits`.
   */
  recentCommits(): Promise<HistoryEntry[]>;
  /** Show a transient status line in the frame (`''` clears it). */
  status(message: string): void;
}

/** A view: draws `ctx.state` into `root` (already empty). Errors it throws are shown by the frame (explainError). */
export type View = (root: HTMLElement, ctx: ViewContext) => Promise<void> | void;
