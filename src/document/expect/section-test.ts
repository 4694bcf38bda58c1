/**
 * Expectations that need no run, against a section as it is (`docdb doc test`, a scheduled health check):
 * `count`, `unique`, `not-null`, `accepted-values` and `references` over every document of each type at
 * one version. The same evaluation as a write's (evaluate.ts), with the type's documents as the "write":
 * each one as it is, so nothing counts as removed or changed, and every document is held to every rule.
 * Cost: a listing of each type, a bulk read of its documents when a rule needs values, and what
 * `references` costs (its target's id index or key listing).
 */
import { appendAll } from '../../core/arrays.js';
import { readAt } from '../../core/derive.js';
import { readManyFrom } from '../../core/read-many.js';
import type { RefStore } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import { decodeEnvelope } from '../envelope.js';
import { evaluateExpectations } from './evaluate.js';
import { type ExpectOp, expectOp, fieldsOf, typeKey } from './fields.js';
import { Tip } from './tip.js';
import type { Expectations, ExpectViolation, TypeExpectations } from './types.js';

/** What `testSection` found: violations (all of them), per type the documents checked, and the version read. */
export interface SectionTestResult {
  version: VersionId | null;
  /** Each with the namespace and type it is about. */
  violations: (ExpectViolation & { namespace: string; type: string })[];
  types: { namespace: string; type: string; documents: number }[];
}

/**
 * Only the expectations that need no run (`max-removed`, `max-changed` and `check` are about a write).
 *
 * @example
 * withoutRun({ count: { min: 1 }, maxRemoved: '10%' }); // { count: { min: 1 } }
 */
export function withoutRun(e: Expectations): Expectations {
  const { maxRemoved: _r, maxChanged: _c, check: _k, ...rest } = e;
  return rest;
}

/**
 * Test `entries` against the section at `version` (default: the tip).
 *
 * @example
 * const r = await testSection(store, [{ namespace: 'github', type: 'repo', expectations: { unique: ['data.name'] } }]);
 * if (r.violations.length) process.exitCode = 1;
 */
export async function testSection(
  store: RefStore,
  entries: readonly TypeExpectations[],
  options: { version?: VersionId } = {},
): Promise<SectionTestResult> {
  const version = options.version ?? (await store.head());
  const tested = entries.map((t) => ({
    namespace: t.namespace,
    type: t.type,
    expectations: withoutRun(t.expectations),
  }));
  const shas = new Map<string, string>();
  const base = { version, read: readAt(store, version), written: (k: string) => shas.get(k) };
  const tip = new Tip(store, base);
  const ops: ExpectOp[] = [];
  const types: SectionTestResult['types'] = [];
  for (const t of tested) {
    const listed = await tip.keys(t);
    for (const [k, sha] of listed) shas.set(k, sha);
    types.push({ namespace: t.namespace, type: t.type, documents: listed.size });
    const fields = fieldsOf(t.expectations);
    if (fields.length === 0 || version === null) continue;
    for await (const item of readManyFrom(store, [...listed.keys()], { version })) {
      if (!item.value) continue;
      const env = decodeEnvelope(item.value, version);
      ops.push(expectOp({ ...t, id: env.id, key: item.key }, env.data, { fields, data: false }));
    }
  }
  // Each type's documents are its "write"; one type's are another's referenced documents only through the tip.
  const violations: SectionTestResult['violations'] = [];
  for (const t of tested) {
    const mine = ops.filter((o) => typeKey(o) === typeKey(t));
    const found = await evaluateExpectations(store, base, [t], mine, tip);
    appendAll(
      violations,
      found.map((v) => ({ namespace: t.namespace, type: t.type, ...v })),
    );
  }
  return { version, violations, types };
}
