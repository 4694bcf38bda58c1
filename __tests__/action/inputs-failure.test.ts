import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/action/failure.js';
import { readInputs } from '../../src/action/inputs.js';
import {
  AuthInvalid,
  ConcurrentUpdate,
  EmptyRepository,
  Forbidden,
  InvalidConfig,
  InvalidSpec,
  RateLimited,
} from '../../src/core/errors.js';

const reader = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('readInputs', () => {
  it('applies defaults and the runner environment', () => {
    const i = readInputs(reader({}), { GITHUB_REPOSITORY: 'o/r', GITHUB_API_URL: 'https://ghe.example/api/v3/' });
    expect(i).toMatchObject({
      spec: '.github/docdb.yml',
      repository: 'o/r',
      root: 'docdb',
      section: 'documents',
      apiUrl: 'https://ghe.example/api/v3',
      mode: 'project',
      projections: [],
      retryConcurrentWrites: 5, // DEFAULT_RETRY_CONCURRENT_WRITES, same as action.yml
    });
    expect(readInputs(reader({ projections: 'a, b,,c' }), { GITHUB_REPOSITORY: 'o/r' }).projections).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('rejects bad inputs naming the input and what is allowed', () => {
    const env = { GITHUB_REPOSITORY: 'o/r' };
    const cases: [Record<string, string>, RegExp][] = [
      [{ mode: 'sync' }, /input "mode": "sync" is not a mode; use one of project, backfill, read, dry-run/],
      [{ repository: 'nope' }, /input "repository": "nope" is not "owner\/name"/],
      [{ 'api-url': 'ftp://x' }, /input "api-url"/],
      [{ 'retry-concurrent-writes': '-1' }, /input "retry-concurrent-writes".*0 to 20/],
      [{ mode: 'read', namespace: 'github', type: 'repo' }, /input "id": is required with mode: read/],
      [{ version: 'abc' }, /input "version".*40-character/],
      [{ version: 'a'.repeat(40) }, /input "version": only applies to mode: read/],
    ];
    for (const [values, message] of cases) {
      expect(() => readInputs(reader(values), env)).toThrow(message);
      expect(() => readInputs(reader(values), env)).toThrow(InvalidConfig);
    }
    expect(() => readInputs(reader({}), {})).toThrow(/no target repository/);
  });
});

describe('describeFailure', () => {
  const inputs = { repository: 'o/r', root: 'docdb', section: 'documents', mode: 'project' as const };
  it('says what to fix for each failure', () => {
    expect(describeFailure(new Forbidden('create tree: 403'), inputs)).toMatch(/permissions:\n {4}contents: write/);
    expect(describeFailure(new AuthInvalid('401'), inputs)).toMatch(/check the secret passed as "token"/);
    expect(describeFailure(new RateLimited('limited', { reset: 1_700_000_000 }), inputs)).toMatch(
      /resets at 2023-11-14T22:13:20.000Z/,
    );
    expect(describeFailure(new EmptyRepository('409'), inputs)).toMatch(/o\/r is empty.*first commit/);
    expect(describeFailure(new ConcurrentUpdate('refs/docdb/documents', 'b'.repeat(40), 4), inputs)).toMatch(
      new RegExp(`competing commit ${'b'.repeat(40)}.*Nothing was committed`),
    );
    expect(describeFailure(new InvalidSpec('x.yml:3:5: projections.a.source: bad', {}), inputs)).toBe(
      'x.yml:3:5: projections.a.source: bad',
    );
    const octo403 = Object.assign(new Error('API rate limit exceeded'), {
      status: 403,
      response: { headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000000' } },
    });
    expect(describeFailure(octo403, inputs)).toMatch(/rate limit hit; it resets at 2023-11-14T22:13:20.000Z/);
  });
});
