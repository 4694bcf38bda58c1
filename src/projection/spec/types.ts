/**
 * The parsed spec as the rest of docdb sees it: a leaf module of types, so that parsing (parse.ts), the
 * per-projection rules (resolve-projection.ts), the reducers and the runner share them without importing
 * each other.
 */
import type { InputNames } from '../../core/input-names.js';
import type { Expectations } from '../../document/expect/types.js';
import type { SourceSpec } from './source-types.js';

export type ReducerSpec = { builtin: string } | { module: string; export: string };

/**
 * `schema:` as the spec gives it: the JSON Schema itself, or the path of a JSON file holding it (relative to
 * the spec file's directory, inside the workspace: read before the first request, projection/run/schema-files.ts).
 */
export type SchemaSpec = { inline: Record<string, unknown> } | { file: string };

/** One projection, validated and with every default filled in. */
export interface ProjectionSpec {
  name: string;
  description?: string;
  source: SourceSpec;
  identity: { namespace: string; type: string; id: string };
  reducer: ReducerSpec;
  prune: boolean;
  /** `index:` — the fields of this namespace/type's index, declared with the run's commit (docs/indexes.md). */
  index?: string[];
  /** `search:` — the fields whose text is searchable in this namespace/type, declared with the run's commit (docs/search.md). */
  search?: string[];
  /** `schema:` — the JSON Schema of this namespace/type's `data`, declared with the run's commit (docs/schemas.md). */
  schema?: SchemaSpec;
  /**
   * `expect:` — data tests on the run's would-be commit (docs/expectations.md), in the library's spelling.
   * The runner passes them as DocumentStore's `expect` option.
   */
  expect?: Expectations;
  /** 1-based line of the projection in the spec file (for messages). */
  line: number;
  /**
   * Lines of `source`, `reducer`, `identity.id` (the projection's line when defaulted), `schema` (the
   * projection's line when absent) and `expect:` (when given), for run-time messages and the annotations of a
   * refused run.
   */
  lines: { source: number; reducer: number; id: number; schema: number; expect?: number };
}

/** A parsed projection spec. */
export interface Spec {
  version: 1;
  /** Path the spec was read from, as given (used in messages and to resolve reducer modules). */
  file: string;
  projections: ProjectionSpec[];
  /** `retention:`: compact the section after each run that wrote (docs/retention.md). */
  retention?: { keepCommits?: number; keepDays?: number; thin?: 'day' | 'week' };
  /** `quarantine: true`: a run its expectations refuse writes its would-be commit beside the section (docs/quarantine.md). */
  quarantine?: boolean;
}

export interface SpecIssue {
  file: string;
  line: number;
  column: number;
  /** Dotted path of the field, e.g. `projections.repos.identity.id`. */
  field: string;
  message: string;
}

export interface ParseSpecOptions {
  /** Repository used when neither the projection nor `defaults` lists `repositories` (the action's `repository`). */
  defaultRepository?: string;
  /** How messages name the run's settings (default the Action's inputs; the CLI passes its flags). */
  inputNames?: InputNames;
}
