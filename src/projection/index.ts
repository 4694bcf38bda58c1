/**
 * Projections: a YAML spec (zod-validated) → GitHub sources fetched page by page through Octokit →
 * reducers → document envelopes → one atomic commit on the section ref. See docs/projection-spec.md.
 *
 * Four folders, each depending only on the ones before it: spec/ (the spec file), sources/ (reading
 * GitHub and other data), reducers/ (item → document data) and run/ (the runner and its commit).
 */

export {
  BUILTINS,
  issueReducer,
  type LoadedReducer,
  loadReducer,
  pullReducer,
  type Reducer,
  type ReducerContext,
  type ReducerResult,
  rawReducer,
  releaseReducer,
  repositoryReducer,
} from './reducers/index.js';
export {
  inShard,
  type MergeReport,
  mergeShards,
  type ProjectionReport,
  parseShard,
  type RunMode,
  type RunOptions,
  type RunReport,
  runProjections,
  type Shard,
  shardOf,
  shardRefOf,
  stateKey,
} from './run/index.js';
export {
  type ConditionalEntry,
  type FetchOptions,
  fetchSource,
  paginate,
  parseCsv,
  parseLinkHeader,
  RateBudget,
  type RateResource,
  type ReadContext,
  readSource,
  type SourceClient,
  type SourceItem,
  type SourcePage,
  type StoredConditional,
  supportsIncremental,
} from './sources/index.js';
export {
  BUILTIN_REDUCERS,
  loadSpec,
  type ParseSpecOptions,
  type ProjectionSpec,
  parseSpec,
  parseTemplate,
  type ReducerSpec,
  renderTemplate,
  type SelectionFilters,
  SOURCE_DEFAULTS,
  SOURCE_TYPES,
  SOURCE_VARIABLES,
  type SourceSpec,
  type SourceType,
  type Spec,
  type SpecIssue,
  TemplateError,
  type TemplatePart,
  templateVariables,
} from './spec/index.js';
