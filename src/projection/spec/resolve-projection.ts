/**
 * Cross-field rules of one projection that zod cannot express per field: which repositories a source
 * reads (its own, `defaults`, or the Action's repository), identity templates against the variables the
 * source provides, reducer/source pairs, `owner/*` filters, plain-http hosts. parse.ts calls this once per
 * projection and reports every problem with its `file:line`.
 */
import { InvalidConfig } from '../../core/errors.js';
import type { InputNames } from '../../core/input-names.js';
import { parseExpectations } from '../../document/expect/parse.js';
import type { Expectations } from '../../document/expect/types.js';
import { type TypeIndex, validateDeclaration } from '../../document/indexes/declaration.js';
import { type TypeSearch, validateSearchDeclaration } from '../../document/search/declaration.js';
import { SOURCE_DEFAULTS, SOURCE_VARIABLES } from './defaults.js';
import { isLoopbackHost, OWNER_WILDCARD_RE, REPO_RE, SEGMENT_RE } from './patterns.js';
import { FILTER_FIELDS } from './source-schema.js';
import { endpointPerRepository, REPOSITORY_SOURCES, type SourceSpec, type SourceType } from './source-types.js';
import { isItemVariable, parseTemplate, TemplateError, templateVariables } from './template.js';
import type { ProjectionSpec, ReducerSpec, SchemaSpec } from './types.js';

/** The projection as zod validated it (before defaults that depend on other fields). */
export interface RawProjection {
  description?: string | undefined;
  source: Record<string, unknown> & { type: SourceType; repositories?: string[] | undefined };
  identity?: { namespace?: string | undefined; type?: string | undefined; id?: string | undefined } | undefined;
  reducer?: string | { module: string; export?: string | undefined } | { builtin: string } | undefined;
  prune: boolean;
  index?: string[] | undefined;
  search?: string[] | undefined;
  schema?: string | Record<string, unknown> | undefined;
  expect?: unknown;
}

export interface ResolveContext {
  builtinReducers: Record<string, readonly SourceType[]>;
  defaultsRepositories: string[] | undefined;
  defaultRepository: string | undefined;
  /** How messages name the run's settings (the `repository` input, or the CLI's --repo). */
  inputNames: InputNames;
  /** Report a problem at a field path. */
  at(path: PropertyKey[], message: string): void;
  /** 1-based line of a field path. */
  line(path: PropertyKey[]): number;
}

/**
 * Resolve one projection, or undefined when a problem makes the rest meaningless (already reported).
 *
 * @example
 * const p = resolveProjection('repos', { source: { type: 'repository' }, prune: false }, ctx);
 * p?.source.repositories; // [ctx.defaultRepository]
 */
export function resolveProjection(name: string, p: RawProjection, ctx: ResolveContext): ProjectionSpec | undefined {
  const base = ['projections', name];
  const srcType = p.source.type;
  const defaults = SOURCE_DEFAULTS[srcType];
  const selection = resolveRepositories(p, base, ctx);
  if (!selection) return undefined;
  if (srcType === 'http') checkHttp(p, base, ctx);

  const idPath = [...base, 'identity', 'id'];
  const idTemplate = p.identity?.id ?? defaults.id;
  if (idTemplate === undefined) {
    ctx.at(
      p.identity ? idPath : [...base, 'source'],
      `identity.id is required for a ${srcType} source (it has no natural key), e.g. ${srcType === 'rest' ? '"{repo}/{item.id}"' : '"{item.id}"'}`,
    );
  } else checkIdTemplate(idTemplate, srcType, selection, idPath, ctx);

  const type = p.identity?.type ?? defaults.type ?? (SEGMENT_RE.test(name) ? name : undefined);
  if (type === undefined) {
    ctx.at(
      [...base, 'identity'],
      `needs identity.type: the projection name ${JSON.stringify(name)} is not a key segment (letters, digits, ".", "_", "-", starting with a letter or digit)`,
    );
  }

  const reducer = resolveReducer(p, srcType, base, ctx);
  if (idTemplate === undefined || type === undefined) return undefined;
  const namespace = p.identity?.namespace ?? defaults.namespace;
  if (p.index !== undefined) checkIndex({ namespace, type, fields: p.index }, [...base, 'index'], ctx);
  if (p.search !== undefined) checkSearch({ namespace, type, fields: p.search }, [...base, 'search'], ctx);
  const expect = p.expect === undefined ? undefined : expectationsOf(p.expect, [...base, 'expect'], ctx);
  return {
    name,
    ...(p.description !== undefined ? { description: p.description } : {}),
    source: normalisedSource(p, selection.repos),
    identity: { namespace, type, id: idTemplate },
    reducer,
    prune: p.prune,
    ...(p.index !== undefined ? { index: p.index } : {}),
    ...(p.search !== undefined ? { search: p.search } : {}),
    ...(p.schema !== undefined ? { schema: schemaSpec(p.schema, [...base, 'schema'], ctx) } : {}),
    ...(expect ? { expect } : {}),
    line: ctx.line(base),
    lines: {
      source: ctx.line([...base, 'source']),
      reducer: ctx.line(
        p.reducer !== undefined && typeof p.reducer === 'object' && 'module' in p.reducer
          ? [...base, 'reducer', 'module']
          : [...base, 'reducer'],
      ),
      id: ctx.line(idPath),
      schema: ctx.line([...base, 'schema']),
      ...(p.expect !== undefined ? { expect: ctx.line([...base, 'expect']) } : {}),
    },
  };
}

/**
 * `schema:` inline, or a file path. Only its shape is checked here (parsing reads no file): the file is read,
 * confined to the workspace and parsed before the first request of a run (projection/run/schema-files.ts).
 */
function schemaSpec(value: string | Record<string, unknown>, path: PropertyKey[], ctx: ResolveContext): SchemaSpec {
  if (typeof value !== 'string') return { inline: value };
  if (!/\.json$/i.test(value)) {
    ctx.at(path, `must be a JSON Schema (a mapping) or the path of a .json file, got ${JSON.stringify(value)}`);
  }
  return { file: value };
}

/** `expect:` by the library's rules (expect/parse.ts), each problem reported at its own field and line. */
function expectationsOf(value: unknown, path: PropertyKey[], ctx: ResolveContext): Expectations | undefined {
  try {
    return parseExpectations(value, 'expect');
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    const below = (e.data.path as string[] | undefined) ?? [];
    const field = String(e.data.field);
    const message = e.message.startsWith(`${field} `) ? e.message.slice(field.length + 1) : e.message;
    ctx.at([...path, ...below.map((s) => (/^\d+$/.test(s) ? Number(s) : s))], message);
    return undefined;
  }
}

/** `index:` by the library's declaration rules (1 to 8 distinct fields, id or data.<path>), reported at the field. */
function checkIndex(index: TypeIndex, path: PropertyKey[], ctx: ResolveContext): void {
  try {
    validateDeclaration({ version: 1, indexes: [index] });
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    const at = /fields\[(\d+)\]/.exec(String(e.data.field ?? ''));
    ctx.at(
      at ? [...path, Number(at[1])] : path,
      e.message.replace(/^index declaration indexes\[0\](\.fields(\[\d+\])?)? ?/, ''),
    );
  }
}

/** `search:` by the library's declaration rules (1 to 8 distinct fields, id or data.<path>), reported at the field. */
function checkSearch(search: TypeSearch, path: PropertyKey[], ctx: ResolveContext): void {
  try {
    validateSearchDeclaration({ version: 1, search: [search] });
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    const at = /fields\[(\d+)\]/.exec(String(e.data.field ?? ''));
    ctx.at(
      at ? [...path, Number(at[1])] : path,
      e.message.replace(/^search declaration search\[0\](\.fields(\[\d+\])?)? ?(is invalid: )?/, ''),
    );
  }
}

/** The repositories a source reads, and whether it reads per repository at all. */
interface Selection {
  repos: string[];
  needsRepos: boolean;
}

/**
 * The source's own `repositories`, else `defaults.repositories`, else the Action's repository; undefined
 * (reported) when none is known or the fallback is not `owner/name`.
 */
function resolveRepositories(p: RawProjection, base: string[], ctx: ResolveContext): Selection | undefined {
  const srcType = p.source.type;
  const needsRepos =
    REPOSITORY_SOURCES.includes(srcType) && (srcType !== 'rest' || endpointPerRepository(String(p.source.endpoint)));
  if (!needsRepos) {
    if (srcType === 'rest' && p.source.repositories) {
      ctx.at(
        [...base, 'source', 'repositories'],
        'the endpoint has no {owner}, {name} or {repo}, so it is read once: remove "repositories" or use {repo} in the endpoint',
      );
    }
    return { repos: [], needsRepos };
  }
  const listed = p.source.repositories ?? ctx.defaultsRepositories;
  const fallback = ctx.defaultRepository;
  if (!listed && !fallback) {
    ctx.at(
      [...base, 'source'],
      `needs "repositories" (no default repository is known: set defaults.repositories or ${ctx.inputNames.phrase('repository')})`,
    );
    return undefined;
  }
  if (!listed && fallback && !REPO_RE.test(fallback)) {
    ctx.at([...base, 'source'], `default repository ${JSON.stringify(fallback)} is not "owner/name"`);
    return undefined;
  }
  const repos = [...new Set(listed ?? [fallback as string])];
  const filters = FILTER_FIELDS.filter((f) => p.source[f] !== undefined);
  if (filters.length > 0 && !repos.some((r) => OWNER_WILDCARD_RE.test(r))) {
    ctx.at(
      [...base, 'source', filters[0]!],
      `filters (${filters.join(', ')}) apply to "owner/*" selections, and this source names no "owner/*" in its repositories`,
    );
  }
  return { repos, needsRepos };
}

/** `http` sources: plain http only to loopback hosts; `items` only picks from JSON. */
function checkHttp(p: RawProjection, base: string[], ctx: ResolveContext): void {
  for (const [i, u] of (Array.isArray(p.source.url) ? p.source.url : [p.source.url]).entries()) {
    const url = new URL(String(u));
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      ctx.at(
        Array.isArray(p.source.url) ? [...base, 'source', 'url', i] : [...base, 'source', 'url'],
        `plain http is only allowed to localhost; use https:// for ${url.host}`,
      );
    }
  }
  if (p.source.items !== undefined && p.source.format !== undefined && p.source.format !== 'json') {
    ctx.at(
      [...base, 'source', 'items'],
      `"items" picks the array out of a JSON document; format is ${p.source.format}`,
    );
  }
}

/** The id template uses only variables the source provides, and at least one unless there is one item. */
function checkIdTemplate(
  idTemplate: string,
  srcType: SourceType,
  { repos, needsRepos }: Selection,
  idPath: PropertyKey[],
  ctx: ResolveContext,
): void {
  try {
    parseTemplate(idTemplate);
    const allowed = SOURCE_VARIABLES[srcType];
    const vars = templateVariables(idTemplate);
    for (const v of vars) {
      if (!allowed.includes(v) && !isItemVariable(v)) {
        ctx.at(
          idPath,
          `unknown template variable {${v}}; the ${srcType} source provides ${allowed.map((a) => `{${a}}`).join(', ')} and {item.<field>}`,
        );
      } else if (srcType === 'rest' && !needsRepos && ['owner', 'name', 'repo'].includes(v)) {
        ctx.at(idPath, `{${v}} has no value: the endpoint is not read per repository`);
      }
    }
    const single = srcType === 'repository' && repos.length === 1 && !OWNER_WILDCARD_RE.test(repos[0]!);
    if (vars.length === 0 && !single) {
      ctx.at(idPath, 'must use at least one template variable, or every item gets the same id');
    }
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    ctx.at(idPath, `bad template ${JSON.stringify(idTemplate)}: ${e.message}`);
  }
}

/** The source with its defaults filled: resolved `repositories`, `url` and `glob` always lists. */
function normalisedSource(p: RawProjection, repos: string[]): SourceSpec {
  const srcType = p.source.type;
  const source = { ...p.source } as Record<string, unknown>;
  if (REPOSITORY_SOURCES.includes(srcType)) source.repositories = repos;
  if (srcType === 'http' && !Array.isArray(source.url)) source.url = [source.url];
  if (srcType === 'files' && !Array.isArray(source.glob)) source.glob = [source.glob];
  return source as SourceSpec;
}

function resolveReducer(p: RawProjection, srcType: SourceType, base: string[], ctx: ResolveContext): ReducerSpec {
  const r = p.reducer;
  if (r === undefined) return { builtin: SOURCE_DEFAULTS[srcType].reducer };
  if (typeof r === 'string' || 'builtin' in r) {
    const rname = typeof r === 'string' ? r : r.builtin;
    const accepts = ctx.builtinReducers[rname];
    const path = typeof r === 'string' ? [...base, 'reducer'] : [...base, 'reducer', 'builtin'];
    if (!accepts) {
      ctx.at(
        path,
        `unknown built-in reducer ${JSON.stringify(rname)}; built-ins are ${Object.keys(ctx.builtinReducers).join(', ')}, or use { module: ./path.js }`,
      );
    } else if (!accepts.includes(srcType)) {
      ctx.at(
        path,
        `reducer ${JSON.stringify(rname)} cannot reduce a ${srcType} source (it accepts ${accepts.join(', ')})`,
      );
    }
    return { builtin: rname };
  }
  if (!/\.(m?js|cjs|m?ts)$/.test(r.module)) {
    ctx.at(
      [...base, 'reducer', 'module'],
      `must be a .js, .mjs, .cjs, .ts or .mts file, got ${JSON.stringify(r.module)}`,
    );
  }
  return { module: r.module, export: r.export ?? 'default' };
}
