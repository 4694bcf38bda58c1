/**
 * The `source:` part of a projection spec: one zod schema per source type, joined into `sourceSchema`
 * (a discriminated union on `type`; `source: issues` is shorthand for `{ type: issues }`). The shape it
 * produces is `SourceSpec` (source-types.ts); parse.ts turns zod's issues into `file:line` messages.
 * See docs/projection-spec.md.
 */
import { z } from 'zod';
import { ENDPOINT_RE, hasDotSegment, OWNER_WILDCARD_RE, REPO_RE } from './patterns.js';
import { SOURCE_TYPES } from './source-types.js';

const repoSelector = z
  .string({ error: 'must be a repository name "owner/name" or "owner/*"' })
  .refine((s) => REPO_RE.test(s) || OWNER_WILDCARD_RE.test(s), {
    error: (i) =>
      `must be a repository name "owner/name", or "owner/*" for every repository of an owner; got ${JSON.stringify(i.input)}`,
  });

export const repositoriesSchema = z
  .union([repoSelector, z.array(repoSelector).min(1, { error: 'must list at least one repository' })], {
    error: 'must be "owner/name", "owner/*", or a list of them',
  })
  .optional()
  .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]));

const includeOpt = (what: string) =>
  z.union([z.boolean(), z.literal('only')], {
    error: `must be true (include ${what}), false (leave them out) or "only"`,
  });

/** Filters for `owner/*` selections (explicitly named repositories are always read). */
const selectionFilters = {
  archived: includeOpt('archived repositories').optional(),
  forks: includeOpt('forks').optional(),
  visibility: z.enum(['all', 'public', 'private'], { error: 'must be one of all, public, private' }).optional(),
  topics: z
    .array(z.string().min(1), { error: 'must be a list of topics; a repository must carry all of them' })
    .min(1)
    .optional(),
};
export const FILTER_FIELDS = Object.keys(selectionFilters) as (keyof typeof selectionFilters)[];

/** Paging limit of the GitHub list sources (page-walk.ts); default 1,000 pages per listing. */
const paging = {
  'max-pages': z
    .number({ error: 'must be a whole number of pages from 1 to 100000' })
    .int({ error: 'must be a whole number of pages from 1 to 100000' })
    .min(1, { error: 'must be a whole number of pages from 1 to 100000' })
    .max(100_000, { error: 'must be a whole number of pages from 1 to 100000' })
    .optional(),
};

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}/.test(s), {
  error: 'must be an ISO-8601 date or timestamp, e.g. 2024-01-31 or 2024-01-31T12:00:00Z',
});

const stateOpt = z.enum(['open', 'closed', 'all'], { error: 'must be one of open, closed, all' }).default('open');

/** A dotted path into a JSON value (`workflow_runs`, `data.items`). */
const itemsPath = z
  .string({ error: 'must be a dotted path to the array in the response, e.g. workflow_runs or data.items' })
  .regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, {
    error: (i) => `must be a dotted path like workflow_runs or data.items, got ${JSON.stringify(i.input)}`,
  });

const repositorySource = z.strictObject({
  type: z.literal('repository'),
  repositories: repositoriesSchema,
  api: z.enum(['graphql', 'rest'], { error: 'must be graphql (default) or rest' }).default('graphql'),
  ...selectionFilters,
  ...paging,
});
const issuesSource = z.strictObject({
  type: z.literal('issues'),
  repositories: repositoriesSchema,
  state: stateOpt,
  labels: z.array(z.string().min(1)).optional(),
  since: isoDate.optional(),
  ...selectionFilters,
  ...paging,
});
const pullsSource = z.strictObject({
  type: z.literal('pulls'),
  repositories: repositoriesSchema,
  state: stateOpt,
  base: z.string().min(1).optional(),
  ...selectionFilters,
  ...paging,
});
const releasesSource = z.strictObject({
  type: z.literal('releases'),
  repositories: repositoriesSchema,
  prereleases: z.boolean({ error: 'must be true or false' }).default(true),
  drafts: z.boolean({ error: 'must be true or false' }).default(true),
  ...selectionFilters,
  ...paging,
});

const restSource = z.strictObject({
  type: z.literal('rest'),
  endpoint: z
    .string({ error: 'must be "GET /path", e.g. "GET /repos/{repo}/actions/runs"' })
    .refine((s) => ENDPOINT_RE.test(s) && !hasDotSegment(s.slice(4)), {
      error: (i) =>
        `must be "GET /path" on the GitHub API (only GET; path segments of letters, digits, ".", "_", "-", or {owner}, {name}, {repo}; no "." or ".." segment, encoded or not); got ${JSON.stringify(i.input)}`,
    }),
  items: itemsPath.optional(),
  params: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]), {
      error: 'must be a mapping of query parameter → string, number or boolean',
    })
    .optional(),
  repositories: repositoriesSchema,
  ...selectionFilters,
  ...paging,
});

const FORMATS = ['json', 'ndjson', 'csv'] as const;
const httpUrl = z.string({ error: 'must be an http(s) URL' }).refine(
  (s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    } catch {
      return false;
    }
  },
  { error: (i) => `must be an https:// URL without credentials, got ${JSON.stringify(i.input)}` },
);
const headerName = z
  .string({ error: 'must be an HTTP header name' })
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, { error: (i) => `is not an HTTP header name: ${JSON.stringify(i.input)}` });
const httpSource = z.strictObject({
  type: z.literal('http'),
  timeout: z
    .number({ error: 'must be a number of seconds from 1 to 600' })
    .min(1, { error: 'must be a number of seconds from 1 to 600' })
    .max(600, { error: 'must be a number of seconds from 1 to 600' })
    .optional(),
  deadline: z
    .number({ error: 'must be a number of seconds from 1 to 3600' })
    .min(1, { error: 'must be a number of seconds from 1 to 3600' })
    .max(3600, { error: 'must be a number of seconds from 1 to 3600' })
    .optional(),
  url: z.union([httpUrl, z.array(httpUrl).min(1)], { error: 'must be a URL or a list of URLs' }),
  format: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).optional(),
  items: itemsPath.optional(),
  'allow-hosts': z
    .array(z.string().regex(/^[A-Za-z0-9.-]+(:\d+)?$/, { error: 'must be a host name such as cdn.example.com' }))
    .optional(),
  header: z
    .strictObject({
      name: headerName,
      env: z
        .string({ error: 'must name an environment variable holding the secret' })
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'must be an environment variable name such as DATA_API_KEY' }),
      prefix: z.string().optional(),
    })
    .optional(),
});

const FILE_FORMATS = ['json', 'yaml', 'csv', 'ndjson'] as const;
const globPattern = z
  .string({ error: 'must be a glob relative to the workspace, e.g. data/**/*.json' })
  .min(1)
  .refine((s) => !s.startsWith('/') && !/^[A-Za-z]:/.test(s) && !s.split('/').includes('..') && !s.includes('\\'), {
    error: (i) =>
      `must be a relative glob inside the workspace (no leading "/", no ".." segments, "/" as separator); got ${JSON.stringify(i.input)}`,
  });
const filesSource = z.strictObject({
  type: z.literal('files'),
  glob: z.union([globPattern, z.array(globPattern).min(1)], { error: 'must be a glob or a list of globs' }),
  format: z.enum(FILE_FORMATS, { error: `must be one of ${FILE_FORMATS.join(', ')}` }).optional(),
  items: itemsPath.optional(),
});

export const sourceSchema = z.preprocess(
  // `source: issues` is shorthand for `source: { type: issues }`.
  (v) => (typeof v === 'string' ? { type: v } : v),
  z.discriminatedUnion(
    'type',
    [repositorySource, issuesSource, pullsSource, releasesSource, restSource, httpSource, filesSource],
    {
      error: (i) =>
        i.input === undefined
          ? `is required: one of ${SOURCE_TYPES.join(', ')}, or a mapping with "type"`
          : i.code === 'invalid_union' && i.input && typeof i.input === 'object'
            ? `source.type must be one of ${SOURCE_TYPES.join(', ')}`
            : `must be a source type (${SOURCE_TYPES.join(', ')}) or a mapping with "type"`,
    },
  ),
);
