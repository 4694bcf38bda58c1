/**
 * A run's guarded write, seen from the runner: the spec's `expect:` in the shape of DocumentStore's `expect`
 * commit option, and the two refusals the commit can answer with — `InvalidDocument` carrying
 * `data.violations` (a `schema:` broken) and `ExpectationsFailed` (an `expect:` not met) — as ONE model,
 * `RunRefusal`, that every report renders (the Action's outputs, annotations and job summary; the CLI).
 * Each violation points at the spec line it is about: the `schema:` or `expect:` of the projection that
 * writes the violation's type. Nothing here holds a document value: a violation names the key, the field and
 * the rule, never what the document held there (it may be a secret).
 */
import { DocDbError } from '../../core/errors.js';
import type { CheckRunner, TypeExpectations } from '../../document/expect/types.js';
import { parseKey, RESERVED_PREFIX } from '../../document/identity.js';
import type { ProjectionSpec } from '../spec/index.js';

/** One violation of a refused run, with the spec line it is about. */
export interface RunViolation {
  /** `schema` (a document broke its type's `schema:`) or `expect` (an `expect:` was not met). */
  kind: 'schema' | 'expect';
  /** The projection whose `schema:`/`expect:` line this points at (undefined: none of the run's writes the type). */
  projection?: string;
  /** 1-based line of that `schema:`/`expect:` in the spec (0: unknown). */
  line: number;
  /** The document the violation is about, when there is one. */
  key?: string;
  /** schema: JSON pointer inside the document (`/data/stars`); rule, expected (from the schema), found (a JSON type). */
  pointer?: string;
  rule?: string;
  expected?: string;
  found?: string;
  /** expect: which expectation (`max-removed`, `unique`, …) and the field it checks. */
  expectation?: string;
  field?: string;
  message: string;
}

/** Why a run's commit was refused, and what was done instead (nothing on the section; maybe a quarantine). */
export interface RunRefusal {
  kind: 'schema' | 'expect';
  /** The refusal's own message (the store's). */
  message: string;
  /** Every violation found (the list holds the first ≤ 50). */
  count: number;
  violations: RunViolation[];
  /** The section tip the refused commit was computed on (null: the section does not exist). */
  version: string | null;
  /** With `quarantine`: where the would-be commit was written (docs/quarantine.md). */
  quarantine?: { id: string; ref: string; version: string };
}

/**
 * The selected projections' `expect:`, one per namespace/type (the spec checked two projections writing one
 * type give the same), each with the runner of its `check:` module when it has one (loaded by the runner).
 *
 * @example
 * await docs.commit(ops, { expect: expectationsOf(spec.projections, checks) });
 */
export function expectationsOf(
  selected: readonly ProjectionSpec[],
  checks: ReadonlyMap<string, CheckRunner> = new Map(),
): TypeExpectations[] {
  const byScope = new Map<string, TypeExpectations>();
  for (const p of selected) {
    if (!p.expect) continue;
    const { namespace, type } = p.identity;
    const runCheck = checks.get(p.name);
    if (byScope.has(`${namespace}/${type}`)) continue;
    byScope.set(`${namespace}/${type}`, { namespace, type, expectations: p.expect, ...(runCheck ? { runCheck } : {}) });
  }
  return [...byScope.values()];
}

/**
 * True for `ExpectationsFailed` (matched by its code: the runner never needs the class itself).
 *
 * @example
 * if (isExpectationsFailed(e) && quarantine) await writeQuarantine(...);
 */
export function isExpectationsFailed(e: unknown): e is DocDbError {
  return e instanceof DocDbError && e.code === 'ExpectationsFailed';
}

/**
 * The refusal `e` is, or undefined when `e` is another failure (it then stays what it is). `selected` maps
 * each violation to the projection (and spec line) it is about.
 *
 * @example
 * const refusal = refusalOf(e, selected);
 * if (refusal) for (const v of refusal.violations) console.log(`${spec.file}:${v.line}: ${v.message}`);
 */
export function refusalOf(e: unknown, selected: readonly ProjectionSpec[]): RunRefusal | undefined {
  if (!(e instanceof DocDbError)) return undefined;
  const data = e.data as Record<string, unknown>;
  const schema = e.code === 'InvalidDocument' && Array.isArray(data.violations);
  if (!schema && e.code !== 'ExpectationsFailed') return undefined;
  const raw = (Array.isArray(data.violations) ? data.violations : []) as Record<string, unknown>[];
  const violations = raw.map((v) => (schema ? schemaViolation(v, selected) : expectViolation(v, selected)));
  const count = typeof data.count === 'number' ? data.count : violations.length;
  const version = typeof data.version === 'string' ? data.version : null;
  return { kind: schema ? 'schema' : 'expect', message: e.message, count, violations, version };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function schemaViolation(v: Record<string, unknown>, selected: readonly ProjectionSpec[]): RunViolation {
  const key = text(v.key);
  const p = projectionOf(selected, key, v, (q) => q.schema !== undefined);
  const pointer = text(v.pointer);
  const rule = text(v.rule);
  const expected = text(v.expected);
  const found = text(v.found);
  const message = `${key ?? '(document)'}: ${pointer || '/data'} breaks "${rule ?? '?'}"${expected ? ` (expected ${expected})` : ''}${found ? `, found ${found}` : ''}`;
  return {
    kind: 'schema',
    ...(p ? { projection: p.name } : {}),
    line: p?.lines.schema ?? 0,
    ...(key !== undefined ? { key } : {}),
    ...(pointer !== undefined ? { pointer } : {}),
    ...(rule !== undefined ? { rule } : {}),
    ...(expected !== undefined ? { expected } : {}),
    ...(found !== undefined ? { found } : {}),
    message,
  };
}

function expectViolation(v: Record<string, unknown>, selected: readonly ProjectionSpec[]): RunViolation {
  const key = text(v.key);
  const p = projectionOf(selected, key, v, (q) => q.expect !== undefined);
  const expectation = text(v.expectation);
  const field = text(v.field);
  return {
    kind: 'expect',
    ...(p ? { projection: p.name } : {}),
    line: p ? (p.lines.expect ?? p.line) : 0,
    ...(key !== undefined ? { key } : {}),
    ...(expectation !== undefined ? { expectation } : {}),
    ...(field !== undefined ? { field } : {}),
    // Said as ExpectationsFailed says its first: which expectation, its field, the document, the problem.
    message: `${expectation ?? 'expectation'}${field ? ` ${field}` : ''}${key ? ` at ${key}` : ''}: ${text(v.message) ?? 'not met'}`,
  };
}

/**
 * The projection a violation is about: the one that declares (`declares`) for the violation's type — the type
 * of its key, or its own `namespace`/`type` when it names them — else, when only one projection declares at
 * all, that one.
 */
function projectionOf(
  selected: readonly ProjectionSpec[],
  key: string | undefined,
  v: Record<string, unknown>,
  declares: (p: ProjectionSpec) => boolean,
): ProjectionSpec | undefined {
  const scope = scopeOf(key, v);
  const declaring = selected.filter(declares);
  const ofScope = scope
    ? declaring.find((p) => p.identity.namespace === scope.namespace && p.identity.type === scope.type)
    : undefined;
  return ofScope ?? (declaring.length === 1 || !scope ? declaring[0] : undefined);
}

function scopeOf(key: string | undefined, v: Record<string, unknown>): { namespace: string; type: string } | undefined {
  if (typeof v.namespace === 'string' && typeof v.type === 'string') return { namespace: v.namespace, type: v.type };
  if (!key || key.startsWith(RESERVED_PREFIX)) return undefined;
  const id = parseKey(key);
  return id ? { namespace: id.namespace, type: id.doc_type } : undefined;
}
