/**
 * Projections: a YAML spec (zod-validated) → GitHub sources fetched page by page through Octokit →
 * reducers → document envelopes → one atomic commit on the section ref. See docs/projection-spec.md.
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
  type ProjectionReport,
  type RunMode,
  type RunOptions,
  type RunReport,
  runProjections,
  stateKey,
} from './run.js';
export { inShard, parseShard, type Shard, shardOf } from './shard.js';
export type { ConditionalEntry, ReadContext, StoredConditional } from './sources/index.js';
export {
  type FetchOptions,
  fetchSource,
  paginate,
  parseCsv,
  parseLinkHeader,
  RateBudget,
  type RateResource,
  readSource,
  type SourceClient,
  type SourceItem,
  type SourcePage,
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
