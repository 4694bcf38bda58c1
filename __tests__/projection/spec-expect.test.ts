/**
 * `expect:` on a projection (issue 38): parsed by the library's parseExpectations, kept on the resolved
 * projection in the library's spelling with its line; every problem names file, line and the spec field.
 */
import { describe, expect, it } from 'vitest';
import { InvalidSpec } from '../../src/core/errors.js';
import { parseSpec } from '../../src/projection/spec/index.js';

function specError(text: string): InvalidSpec {
  try {
    parseSpec(text, 'docdb.yml');
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidSpec);
    return e as InvalidSpec;
  }
  throw new Error('expected the spec to be rejected');
}

const REPOS =
  'projections:\n  repos:\n    source: { type: repository, api: rest, repositories: [octo/hello, octo/world] }\n';

describe('expect: in the spec', () => {
  it('is kept on the projection in the library spelling, with its line', () => {
    const spec = parseSpec(
      `${REPOS}    expect:\n      count: { min: 1 }\n      max-removed: "10%"\n      not-null: [data.name]\n      accepted-values: { data.visibility: [public, private] }\n      references: { data.owner: github/owner }\n`,
      'docdb.yml',
    );
    const p = spec.projections[0]!;
    expect(p.expect).toEqual({
      count: { min: 1 },
      maxRemoved: '10%',
      notNull: ['data.name'],
      acceptedValues: { 'data.visibility': ['public', 'private'] },
      references: { 'data.owner': 'github/owner' },
    });
    expect(p.lines.expect).toBe(4);
    expect(parseSpec(REPOS, 'docdb.yml').projections[0]).not.toHaveProperty('expect');
  });

  it.each([
    ['expect:\n      max-removed: lots', 'projections.repos.expect.max-removed', 5, /percentage from "0%" to "100%"/],
    ['expect:\n      unique: [data.a, stars]', 'projections.repos.expect.unique[1]', 5, /"id" or a dotted path/],
    [
      'expect:\n      accepted-values:\n        data.state: open',
      'projections.repos.expect.accepted-values.data.state',
      6,
      /list of 1 to 1000 values/,
    ],
    ['expect:\n      max_removed: 3', 'projections.repos.expect', 4, /max_removed \(spelt kebab-case here\)/],
    ['expect: 10%', 'projections.repos.expect', 4, /must be a mapping/],
  ])('%s is refused naming file, line and field', (line, field, at, message) => {
    const e = specError(`${REPOS}    ${line}\n`);
    expect(e.data.field).toBe(field);
    expect(e.data.line).toBe(at);
    expect(e.message).toMatch(message);
  });

  it('two projections of one type with different expect: are refused', () => {
    const e = specError(
      `${REPOS}    expect: { count: { min: 1 } }\n  more:\n    source: { type: repository, api: rest, repositories: [octo/more] }\n    expect: { count: { min: 2 } }\n`,
    );
    expect(e.data.field).toBe('projections.more.expect');
    expect(e.message).toMatch(/"repos" and "more" both write github\/repo\/… with different expect:/);
  });
});
