/**
 * reducers/: source item → document data. The built-ins, loading a custom module from the workspace, and
 * the worker thread a custom module runs in under a time limit. Depends on spec/ only; run/ calls them.
 */
export {
  BUILTINS,
  issueReducer,
  pullReducer,
  rawReducer,
  releaseReducer,
  repositoryReducer,
} from './builtins.js';
export { loadReducer } from './load.js';
export type { LoadedReducer, LoadReducerOptions, Reducer, ReducerContext, ReducerResult } from './types.js';
export { DEFAULT_REDUCER_TIMEOUT_SECONDS, ReducerCallError } from './worker.js';
