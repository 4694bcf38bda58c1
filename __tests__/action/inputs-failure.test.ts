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
  NotFound,
  RateLimited,
  TransportError,
  UpstreamUnavailable,
} from '../../src/core/errors.js';
import { RESERVED_REF_SPACES } from '../../src/core/refname.js';
import { fetchSource, type SourceClient } from '../../src/projection/sources/index.js';
import type { SourceSpec } from '../../src/projection/spec/index.js';

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
      retryConcurrentWrites: 100, // DEFAULT_RETRY_CONCURRENT_WRITES, same as action.yml
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
      [{ 'retry-concurrent-writes': '-1' }, /input "retry-concurrent-writes".*0 to 1000/],
      [{ mode: 'read', namespace: 'github', type: 'repo' }, /input "id": is required with mode: read/],
      [{ version: 'abc' }, /input "version".*40 hex characters, or at least the first 4/],
      [{ version: 'a'.repeat(40) }, /input "version": only applies to mode: read/],
    ];
    for (const [values, message] of cases) {
      expect(() => readInputs(reader(values), env)).toThrow(message);
      expect(() => readInputs(reader(values), env)).toThrow(InvalidConfig);
    }
    expect(() => readInputs(reader({}), {})).toThrow(/no target repository/);
  });

  it("refuses a root or section in a section's reserved space, naming the input (issue 37 item 14)", () => {
    const env = { GITHUB_REPOSITORY: 'o/r' };
    for (const { suffix } of RESERVED_REF_SPACES) {
      const section = () => readInputs(reader({ section: `documents${suffix}/1` }), env);
      expect(section).toThrow(InvalidConfig);
      expect(section).toThrow(
        `input "section": "documents${suffix}/1" is in a reserved space: a component ending in "${suffix}"`,
      );
      expect(() => readInputs(reader({ root: `docdb${suffix}` }), env)).toThrow(
        `input "root": "docdb${suffix}" is in a reserved space`,
      );
    }
    expect(readInputs(reader({ section: 'documents-shards/1' }), env).section).toBe('documents-shards/1');
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
  });

  // Octokit throws RequestErrors for source requests; they go through the store's one status mapping.
  const octokitError = (status: number, headers: Record<string, string> = {}, withResponse = true) =>
    Object.assign(new Error(`HTTP ${status}`), {
      status,
      request: { headers: { authorization: 'token [REDACTED]' } },
      ...(withResponse ? { response: { status, headers, data: { message: `answer ${status}` } } } : {}),
    });
  const sourceFailure = async (error: Error) => {
    const client: SourceClient = {
      request: async () => {
        throw error;
      },
    };
    const source = { type: 'releases', drafts: false, prereleases: true } as unknown as SourceSpec;
    return fetchSource(client, source, 'src/repo')
      .next()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
  };

  it('maps source failures through the one status mapping and says what to fix', async () => {
    const limited = await sourceFailure(
      octokitError(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000000' }),
    );
    expect(limited).toBeInstanceOf(RateLimited);
    expect(describeFailure(limited, inputs)).toMatch(/rate limit hit; it resets at 2023-11-14T22:13:20.000Z/);

    const forbidden = await sourceFailure(octokitError(403));
    expect(forbidden).toBeInstanceOf(Forbidden);
    expect(describeFailure(forbidden, inputs)).toMatch(/cannot read a source repository/);
    expect(describeFailure(forbidden, inputs)).not.toMatch(/permissions:/);

    const missing = await sourceFailure(octokitError(404));
    expect(missing).toBeInstanceOf(NotFound);
    expect(describeFailure(missing, inputs)).toMatch(/source repository src\/repo not found/);

    expect(await sourceFailure(octokitError(401))).toBeInstanceOf(AuthInvalid);
    expect(await sourceFailure(octokitError(502))).toBeInstanceOf(UpstreamUnavailable);
    // Octokit's connection failure: status 500 and no response — not an upstream 500.
    expect(await sourceFailure(octokitError(500, {}, false))).toBeInstanceOf(TransportError);
  });
});
