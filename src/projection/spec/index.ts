/**
 * spec/: the projection spec — its schema per part, parsing with `file:line` messages, the defaults of each
 * source, identity templates, and loading the file. The bottom of projection/: it imports nothing from the
 * sibling folders (sources/, reducers/, run/), which all read what is exported here.
 */

export { type Confined, confinedTo } from './confine.js';
export { BUILTIN_REDUCERS, SOURCE_DEFAULTS, SOURCE_VARIABLES } from './defaults.js';
export { type LoadSpecOptions, loadSpec } from './load.js';
export { parseSpec } from './parse.js';
export { ENDPOINT_RE, hasDotSegment, isLoopbackHost, OWNER_WILDCARD_RE, REPO_RE, SEGMENT_RE } from './patterns.js';
export {
  endpointPerRepository,
  REPOSITORY_SOURCES,
  type RepositorySourceSpec,
  readsRepositories,
  type SelectionFilters,
  SOURCE_TYPES,
  type SourceSpec,
  type SourceType,
} from './source-types.js';
export {
  isItemVariable,
  itemVariables,
  parseTemplate,
  renderTemplate,
  TemplateError,
  type TemplatePart,
  templateVariables,
  valueAt,
} from './template.js';
export type { ParseSpecOptions, ProjectionSpec, ReducerSpec, SchemaSpec, Spec, SpecIssue } from './types.js';
