/**
 * Reducers turn one source item into a document's `data` (a JSON object), or `null` to skip the item. The
 * types every part shares — the built-ins, loading a custom module, the worker thread it runs in, and the
 * runner — in a leaf module, so none of them import each other for a type.
 */
import type { SourceType } from '../spec/index.js';

/** What a reducer gets besides the item. */
export interface ReducerContext {
  /** Projection name from the spec. */
  projection: string;
  /** Source type (`repository`, `issues`, `pulls`, `releases`). */
  source: SourceType;
  /** Repository the item came from, `owner/name`. */
  repository: string;
  owner: string;
  name: string;
  /** The document identity the result will be stored under. */
  identity: { namespace: string; type: string; id: string };
}

export type ReducerResult = Record<string, unknown> | null | undefined;
/** A reducer: source item → document data, or null/undefined to skip the item. May be async. */
export type Reducer = (item: unknown, context: ReducerContext) => ReducerResult | Promise<ReducerResult>;

export interface LoadedReducer {
  reduce: Reducer;
  /** A fingerprint of the reducer's code (built-in name, or a hash of the module file) for incremental state. */
  fingerprint: string;
  /** Stops the reducer's worker thread (custom modules); a no-op for built-ins. */
  close(): Promise<void>;
}

export interface LoadReducerOptions {
  /**
   * Directory reducer modules must stay inside after symbolic links are resolved (the Action: the
   * workspace). Default: `baseDir`.
   */
  confineTo?: string;
  /** Milliseconds one reducer call may take before the run fails (default 30 s). */
  timeoutMs?: number;
}
