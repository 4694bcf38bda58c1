/**
 * A refused run points each violation at the spec line it is about (issue 38): a `count` or `max-removed`
 * violation has no key, so the evaluation names the type whose expectations it broke and the runner puts it on
 * that projection's `expect:` line — not the first projection's, not line 1.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/index.js';
import { refusalOf } from '../../src/projection/run/guarded-write.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';

const SPEC = `projections:
  repos:
    source: { type: repository, api: rest, repositories: [octo/hello] }
    expect:
      count: { min: 1 }
  releases:
    source: { type: releases, repositories: [octo/hello] }
    expect:
      count: { min: 5 }
`;

describe('where a refused run points a violation without a key', () => {
  it("at the expect: line of the projection whose type broke it (here the second's)", async () => {
    const spec = parseSpec(SPEC, 'docdb.yml');
    const [repos, releases] = spec.projections;
    expect(repos?.lines.expect).toBe(4);
    expect(releases?.lines.expect).toBe(8);
    const docs = new DocumentStore(new MemoryRefStore());
    const write = docs.putMany(
      [
        { namespace: repos!.identity.namespace, type: repos!.identity.type, id: 'octo/hello', data: {} },
        { namespace: releases!.identity.namespace, type: releases!.identity.type, id: 'octo/hello/v1', data: {} },
      ],
      {
        expect: spec.projections.map((p) => ({ ...p.identity, expectations: p.expect! })),
      },
    );
    const e = await write.then(
      () => undefined,
      (x: unknown) => x,
    );
    const refusal = refusalOf(e, spec.projections);
    expect(refusal?.violations.map((v) => [v.expectation, v.projection, v.line])).toEqual([['count', 'releases', 8]]);
  });
});
