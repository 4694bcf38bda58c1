/** `expect:` parsing (issue 38): the spec spelling into Expectations, every refusal naming its field and what is allowed. */
import { describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../../src/core/errors.js';
import { parseExpectations, validateExpect } from '../../../src/document/expect/index.js';

function refusal(value: unknown, field?: string): InvalidConfig {
  try {
    parseExpectations(value, field);
  } catch (e) {
    if (e instanceof InvalidConfig) return e;
    throw e;
  }
  throw new Error('accepted');
}

describe('parseExpectations', () => {
  it('reads every expectation in the spec spelling', () => {
    expect(
      parseExpectations({
        count: { min: 1, max: 10 },
        'max-removed': '10%',
        'max-changed': 5,
        unique: ['id', 'data.slug'],
        'not-null': ['data.title'],
        'accepted-values': { 'data.state': ['open', 'closed', null, 1, true] },
        references: { 'data.repo': 'github/repo' },
        check: { module: './checks/x.mjs' },
      }),
    ).toEqual({
      count: { min: 1, max: 10 },
      maxRemoved: '10%',
      maxChanged: 5,
      unique: ['id', 'data.slug'],
      notNull: ['data.title'],
      acceptedValues: { 'data.state': ['open', 'closed', null, 1, true] },
      references: { 'data.repo': 'github/repo' },
      check: { module: './checks/x.mjs' },
    });
  });

  it.each([
    [{ 'max-removed': 'ten' }, 'expect.max-removed', /percentage/],
    [{ 'max-removed': '150%' }, 'expect.max-removed', /"0%" to "100%"/],
    [{ 'max-changed': -1 }, 'expect.max-changed', /whole number/],
    [{ count: { min: 5, max: 2 } }, 'expect.count', /min 5 above max 2/],
    [{ count: {} }, 'expect.count', /min and\/or max/],
    [{ count: { min: 1.5 } }, 'expect.count.min', /whole number/],
    [{ unique: [] }, 'expect.unique', /1 to 32 fields/],
    [{ unique: ['stars'] }, 'expect.unique.0', /"id" or a dotted path/],
    [{ 'not-null': ['data.a', 'data.a'] }, 'expect.not-null', /twice/],
    [{ 'accepted-values': { 'data.state': 'open' } }, 'expect.accepted-values.data.state', /list of 1 to/],
    [{ 'accepted-values': { 'data.state': [{}] } }, 'expect.accepted-values.data.state.0', /string, number/],
    [{ references: { 'data.repo': 'github' } }, 'expect.references.data.repo', /namespace\/type/],
    [{ check: { module: './x.py' } }, 'expect.check.module', /path to a module/],
    [{ maxRemoved: 3 }, 'expect', /maxRemoved \(spelt kebab-case here\)/],
    ['10%', 'expect', /mapping/],
  ])('refuses %j at %s', (value, field, message) => {
    const e = refusal(value);
    expect(e.data.field).toBe(field);
    expect(e.message).toContain(field);
    expect(e.message).toMatch(message);
    expect(typeof e.data.allowed).toBe('string');
  });

  it('names a spec field under its own base (the projection) and gives the path segments', () => {
    const e = refusal({ 'accepted-values': { 'data.state': 'x' } }, 'projections.issues.expect');
    expect(e.data.field).toBe('projections.issues.expect.accepted-values.data.state');
    expect(e.data.path).toEqual(['accepted-values', 'data.state']);
  });
});

describe('validateExpect (the DocumentStore option, library spelling)', () => {
  it('takes camelCase keys and names them in errors', () => {
    expect(validateExpect([{ namespace: 'g', type: 'repo', expectations: { maxRemoved: '10%' } }])).toEqual([
      { namespace: 'g', type: 'repo', expectations: { maxRemoved: '10%' } },
    ]);
    expect(() => validateExpect([{ namespace: 'g', type: 'repo', expectations: { maxRemoved: 'lots' } }])).toThrowError(
      /expect\[0\]\.expectations\.maxRemoved must be/,
    );
    expect(() => validateExpect([{ namespace: 'g', type: 'repo', expectations: { 'max-removed': 1 } }])).toThrowError(
      /max-removed \(use maxRemoved\)/,
    );
  });

  it('refuses a type given twice, a bad identity, and a check without runCheck', () => {
    const e = { expectations: {} };
    expect(() =>
      validateExpect([
        { namespace: 'g', type: 'r', ...e },
        { namespace: 'g', type: 'r', ...e },
      ]),
    ).toThrow(/expect\[1\] names g\/r again/);
    expect(() => validateExpect([{ namespace: 'g/x', type: 'r', ...e }])).toThrow(InvalidConfig);
    expect(() =>
      validateExpect([{ namespace: 'g', type: 'r', expectations: { check: { module: './c.mjs' } } }]),
    ).toThrowError(/needs runCheck/);
  });
});
