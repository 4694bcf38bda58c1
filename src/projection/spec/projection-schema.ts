/**
 * The zod schema of the whole spec file: `version`, `defaults` and `projections`, each projection with its
 * `source` (source-schema.ts), `identity`, `reducer` and `prune`. Field by field only: the rules that join
 * several fields (templates against the source's variables, reducer/source pairs…) are in
 * resolve-projection.ts.
 */
import { z } from 'zod';
import { SEGMENT_RE } from './patterns.js';
import { repositoriesSchema, sourceSchema } from './source-schema.js';

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Projection names that are properties of every JavaScript object. */
export const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

const segment = (what: string) =>
  z.string({ error: `must be a string (the ${what} key segment)` }).regex(SEGMENT_RE, {
    error: (i) =>
      `must be one key segment: letters, digits, ".", "_" or "-", starting with a letter or digit; got ${JSON.stringify(i.input)}`,
  });

const identitySchema = z.strictObject({
  namespace: segment('namespace').optional(),
  type: segment('type').optional(),
  id: z.string({ error: 'must be a template string such as "{owner}/{name}"' }).min(1).optional(),
});

const reducerSchema = z.union(
  [
    z.string().min(1),
    z.strictObject({
      module: z.string({ error: 'must be a path to a JavaScript module, e.g. ./reducers/issue.js' }).min(1),
      export: z.string().min(1).optional(),
    }),
    z.strictObject({ builtin: z.string().min(1) }),
  ],
  { error: 'must be a built-in reducer name, or a mapping { module: ./path.js, export?: name }' },
);

const projectionSchema = z.strictObject({
  description: z.string().optional(),
  source: sourceSchema,
  identity: identitySchema.optional(),
  reducer: reducerSchema.optional(),
  prune: z.boolean({ error: 'must be true or false' }).default(false),
  /** The fields of the documents' index (docs/indexes.md), declared in the same commit as the documents. */
  index: z
    .array(z.string({ error: 'must be a field name: id or data.<path>, e.g. data.stars' }), {
      error: 'must be a list of fields to index, e.g. [data.language, data.stars]',
    })
    .optional(),
  /** The fields whose text is searchable (docs/search.md), declared in the same commit as the documents. */
  search: z
    .array(z.string({ error: 'must be a field name: id or data.<path>, e.g. data.title' }), {
      error: 'must be a list of fields to search, e.g. [data.title, data.body]',
    })
    .optional(),
  /**
   * A JSON Schema for the documents' `data` (docs/schemas.md): inline, or a path to a JSON file inside the
   * workspace (relative to the spec file, the reducer modules' rule). Declared in the same commit as the documents.
   */
  schema: z
    .union([z.string().min(1), z.record(z.string(), z.unknown())], {
      error:
        'must be a JSON Schema (a mapping) or the path of a JSON file inside the workspace, e.g. ./schemas/repo.json',
    })
    .optional(),
  /** Data tests on the run's would-be commit (docs/expectations.md), parsed by parseExpectations in resolve-projection.ts. */
  expect: z.unknown().optional(),
});

export const specSchema = z.strictObject({
  version: z.literal(1, { error: 'must be 1 (the only spec version)' }).default(1),
  defaults: z.strictObject({ repositories: repositoriesSchema }).optional(),
  // Compaction after each run that wrote (docs/retention.md); a policy that keeps nothing is refused.
  retention: z
    .strictObject({
      'keep-commits': z
        .int({ error: 'must be a whole number of commits' })
        .min(1, { error: 'must be at least 1' })
        .optional(),
      'keep-days': z
        .int({ error: 'must be a whole number of days' })
        .min(1, { error: 'must be at least 1' })
        .optional(),
      thin: z.enum(['day', 'week'], { error: 'must be day or week' }).optional(),
    })
    .refine((r) => r['keep-commits'] !== undefined || r['keep-days'] !== undefined, {
      error: 'keeps nothing: give keep-commits and/or keep-days (thin only thins what they do not keep)',
    })
    .optional(),
  // A run refused by its expectations writes its would-be commit beside the section (docs/quarantine.md).
  quarantine: z.boolean({ error: 'must be true or false' }).optional(),
  projections: z.record(
    z.string().regex(NAME_RE, {
      error: (i) =>
        `projection name ${JSON.stringify(i.input)} must start with a letter or "_" and contain only letters, digits, "_" and "-"`,
    }),
    projectionSchema,
    {
      error: (i) =>
        i.code === 'invalid_type'
          ? 'must be a mapping of projection name to projection (like "jobs:" in a workflow)'
          : undefined,
    },
  ),
});

/**
 * Fields allowed where an unknown one was found, for the "unknown field" message.
 *
 * @example
 * allowedFields(['projections', 'repos', 'identity']); // ['namespace', 'type', 'id']
 */
export function allowedFields(path: readonly PropertyKey[]): string[] | undefined {
  const last = path[path.length - 1];
  if (path.length === 0) return ['version', 'defaults', 'retention', 'quarantine', 'projections'];
  if (path.length === 2 && path[0] === 'projections')
    return ['description', 'source', 'identity', 'reducer', 'prune', 'index', 'search', 'schema', 'expect'];
  if (last === 'identity') return ['namespace', 'type', 'id'];
  if (last === 'reducer') return ['module', 'export'];
  if (last === 'defaults') return ['repositories'];
  return undefined;
}
