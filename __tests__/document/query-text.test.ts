/**
 * The text syntax of query clauses shared by the CLI and the Action (src/document/query-text.ts): what each
 * form gives, JSON typing of values, errors that name the setting and the allowed forms, and a round trip
 * of every valid clause through formatWhere → parseWhere (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLI_INPUT_NAMES } from '../../src/cli/input-flags.js';
import { InvalidConfig } from '../../src/core/errors.js';
import type { WhereClause } from '../../src/document/indexes/query.js';
import { formatWhere, parseOrderBy, parseWhere } from '../../src/document/query-text.js';

const caught = (f: () => unknown): InvalidConfig => {
  try {
    f();
  } catch (e) {
    if (e instanceof InvalidConfig) return e;
    throw e;
  }
  throw new Error('expected InvalidConfig');
};

describe('parseWhere', () => {
  it.each([
    ['data.language=TypeScript', { field: 'data.language', op: '=', value: 'TypeScript' }],
    ['data.stars>=10', { field: 'data.stars', op: '>=', value: 10 }],
    ['data.stars > 10', { field: 'data.stars', op: '>', value: 10 }],
    ['data.stars<2.5', { field: 'data.stars', op: '<', value: 2.5 }],
    ['data.stars<=-1', { field: 'data.stars', op: '<=', value: -1 }],
    ['data.archived=true', { field: 'data.archived', op: '=', value: true }],
    ['data.parent=null', { field: 'data.parent', op: '=', value: null }],
    ['data.code="10"', { field: 'data.code', op: '=', value: '10' }],
    ['data.title=a=b', { field: 'data.title', op: '=', value: 'a=b' }],
    ['data.title="=b"', { field: 'data.title', op: '=', value: '=b' }],
    ['data.id=9007199254740991', { field: 'data.id', op: '=', value: 9007199254740991 }],
    ['data.name=Hello world', { field: 'data.name', op: '=', value: 'Hello world' }],
    ['id=octo/hello', { field: 'id', op: '=', value: 'octo/hello' }],
    ['data.owner.login=octo', { field: 'data.owner.login', op: '=', value: 'octo' }],
    ['data.topics~cli', { field: 'data.topics', op: 'contains', value: 'cli' }],
    ['data.topics contains cli', { field: 'data.topics', op: 'contains', value: 'cli' }],
    ['data.ids contains 7', { field: 'data.ids', op: 'contains', value: 7 }],
    ['data.language in Go,Rust, TypeScript', { field: 'data.language', op: 'in', value: ['Go', 'Rust', 'TypeScript'] }],
    ['data.stars in 1,2,"3"', { field: 'data.stars', op: 'in', value: [1, 2, '3'] }],
    ['data.title in ["a,b", "c"]', { field: 'data.title', op: 'in', value: ['a,b', 'c'] }],
    ['data.archived exists', { field: 'data.archived', op: 'exists', value: true }],
    ['  data.archived absent ', { field: 'data.archived', op: 'exists', value: false }],
    ['{"field":"data.a b","op":"=","value":1}', { field: 'data.a b', op: '=', value: 1 }],
  ])('%s', (text, clause) => {
    expect(parseWhere(text)).toEqual(clause);
  });

  it.each([
    ['data.stars', /is not FIELD OPERATOR VALUE/],
    ['stars>=10', /is not FIELD OPERATOR VALUE/],
    ['data.>=10', /is not FIELD OPERATOR VALUE/],
    ['data.x!=1', /there is no "!" or "!=": "absent" matches a missing field/],
    ['data.x=', /no value after "="/],
    ['data.x in', /"in" needs a value/],
    ['data.x exists yes', /"exists" takes no value/],
    ['data.stars>=true', /its value for ">=" is true; allowed: a number within ±\(2\^53 − 1\) or a string$/],
    // An operator followed by operator characters: a typo, never the value "=open" (issue 37 item 7).
    ['data.state==open', /"==" is not an operator \(the operators are =, <, <=, >, >=, ~; e.g. data.state>=10\)/],
    ['data.stars~~3', /"~~" is not an operator .*written as JSON: data.stars~"~3"/],
    ['data.x>=<1', /">=<" is not an operator/],
    ['data.x = =open', /"==" is not an operator/],
    // Beyond 2^53 a number is already rounded: refused, never compared as its neighbour.
    ['data.id=9007199254740993', /beyond ±\(2\^53 − 1\) is not exact/],
    ['data.id in 1,9007199254740993', /beyond ±\(2\^53 − 1\) is not exact/],
    ['{"field":"data.id","op":">","value":-9007199254740993}', /beyond ±\(2\^53 − 1\) is not exact/],
    ['data.x={"a":1}', /its value for "=" is \{"a":1\}; allowed: a JSON scalar/],
    ['data.x~[1]', /its value for "contains" is \[1\]/],
    ['{"field":"data.x","op":"like","value":1}', /its op is "like"; allowed: =, in, </],
    ['{"field":"data.x","op":"=","value":1,"x":2}', /only field, op and value, not x/],
    ['{nope', /starts with "\{" but is not a JSON object/],
  ])('%s is refused, naming the input', (text, why) => {
    const e = caught(() => parseWhere(text));
    expect(e.message).toMatch(/^input "where": /);
    expect(e.message).toContain(JSON.stringify(text));
    expect(e.message).toMatch(why);
    expect(e.data.field).toBe('where');
  });

  it('names --where in the CLI and lists the allowed forms', () => {
    const e = caught(() => parseWhere('data.stars', CLI_INPUT_NAMES));
    expect(e.message).toMatch(/^--where: "data.stars": it is not FIELD OPERATOR VALUE; allowed: FIELD=VALUE, /);
    expect(e.data.allowed).toContain('FIELD in A,B,C');
  });
});

describe('parseOrderBy', () => {
  it('a leading - is descending, + or nothing ascending', () => {
    expect(parseOrderBy('-data.stars')).toEqual({ field: 'data.stars', direction: 'desc' });
    expect(parseOrderBy('+data.stars')).toEqual({ field: 'data.stars', direction: 'asc' });
    expect(parseOrderBy('id')).toEqual({ field: 'id', direction: 'asc' });
  });
  it('anything but a field is refused naming the setting', () => {
    for (const bad of ['stars', '-', 'data.', '--data.x']) {
      const e = caught(() => parseOrderBy(bad, CLI_INPUT_NAMES));
      expect(e.message).toMatch(/^--order-by: ".*" is not a field, id or data.<path>, with "-" in front/);
    }
  });
});

const segment = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => /^[^.\s=<>~!]+$/.test(s));
const field = fc.oneof(
  fc.constant('id'),
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `data.${s.join('.')}`),
);
const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  // Valid clauses hold exact numbers only (within ±(2^53 − 1)).
  fc
    .double({ noNaN: true, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER })
    .map((n) => (Object.is(n, -0) ? 0 : n)),
  fc.integer(),
  fc.string(),
  fc.constantFrom('10', 'true', 'null', ' x', '=5', '~x', '<b>', '>', 'a,b', '[1]', '"q"', ''),
);
const clause: fc.Arbitrary<WhereClause> = fc.oneof(
  fc.record({ field, op: fc.constantFrom('=' as const, 'contains' as const), value: scalar }),
  fc.record({
    field,
    op: fc.constantFrom('<' as const, '<=' as const, '>' as const, '>=' as const),
    value: fc.oneof(fc.integer(), fc.string()),
  }),
  fc.record({ field, op: fc.constant('in' as const), value: fc.array(scalar, { minLength: 1, maxLength: 5 }) }),
  fc.record({ field, op: fc.constant('exists' as const), value: fc.boolean() }),
);

describe('formatWhere → parseWhere', () => {
  it('reads every valid clause back as it was', () => {
    fc.assert(
      fc.property(clause, (c) => {
        expect(parseWhere(formatWhere(c))).toEqual(c);
      }),
      { numRuns: 2000 },
    );
  });
});
