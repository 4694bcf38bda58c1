/** Units of the new sources: CSV, globs, shards, the ETag book, the rate budget, item templates, spec rules. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLI_INPUT_NAMES } from '../../src/cli/input-flags.js';
import { InvalidConfig, InvalidResponse, InvalidSpec, RateLimited } from '../../src/core/errors.js';
import type { InputNames } from '../../src/core/input-names.js';
import { runProjections } from '../../src/projection/run/index.js';
import { inShard, parseShard, shardOf } from '../../src/projection/run/shard.js';
import { nextOnOrigin } from '../../src/projection/sources/api-url.js';
import { RateBudget } from '../../src/projection/sources/budget.js';
import { ConditionalBook, tokenIdentity } from '../../src/projection/sources/conditional.js';
import { parseCsv, parseItems } from '../../src/projection/sources/formats.js';
import { globBase, globToRegExp } from '../../src/projection/sources/glob.js';
import { endpointPath } from '../../src/projection/sources/rest.js';
import { matchesFilters } from '../../src/projection/sources/select.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { itemVariables, parseTemplate, renderTemplate } from '../../src/projection/spec/template.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';

function specError(text: string): InvalidSpec {
  try {
    parseSpec(text, 'docdb.yml', { defaultRepository: 'o/r' });
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidSpec);
    return e as InvalidSpec;
  }
  throw new Error('expected the spec to be rejected');
}

describe('CSV, NDJSON, JSON items', () => {
  it('parses quoted fields, escaped quotes, CRLF, a BOM and blank last lines', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n\r\n')).toEqual([{ a: 'x, y', b: 'say "hi"' }]);
    expect(parseCsv('a\n"multi\nline"\n')).toEqual([{ a: 'multi\nline' }]);
    expect(() => parseCsv('a,b\n1\n', 'f.csv')).toThrow(/f\.csv: row 2 has 1 fields, the header has 2/);
    expect(() => parseCsv('a\n"open\n', 'f.csv')).toThrow(InvalidResponse);
  });
  it('round-trips any table of strings through CSV quoting', () => {
    const cell = fc.string({ maxLength: 8 });
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 5 }), (rows) => {
        const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
        const text = `h1,h2\n${rows.map(([a, b]) => `${q(a)},${q(b)}`).join('\n')}\n`;
        expect(parseCsv(text)).toEqual(rows.map(([a, b]) => ({ h1: a, h2: b })));
      }),
    );
  });
  it('NDJSON lines, JSON arrays, objects and items paths; errors name the line', () => {
    expect(parseItems('{"a":1}\n\n{"a":2}\n', 'ndjson', 'x')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(() => parseItems('{"a":1}\nnope\n', 'ndjson', 'x')).toThrow(/x: line 2 is not JSON/);
    expect(parseItems('[1,2]', 'json', 'x')).toEqual([1, 2]);
    expect(parseItems('{"k":1}', 'json', 'x')).toEqual([{ k: 1 }]);
    expect(parseItems('{"d":{"list":[3]}}', 'json', 'x', 'd.list')).toEqual([3]);
    expect(() => parseItems('{"d":{}}', 'json', 'x', 'd.list')).toThrow(/"d\.list" is not an array/);
    expect(parseItems('- a: 1\n', 'yaml', 'x')).toEqual([{ a: 1 }]);
  });
});

describe('globs', () => {
  it('match like a shell glob over / paths', () => {
    const re = globToRegExp('data/**/*.json');
    expect(['data/a.json', 'data/x/y/b.json'].every((p) => re.test(p))).toBe(true);
    expect(['data/a.jsonx', 'other/a.json', 'data/a/b.yml'].some((p) => re.test(p))).toBe(false);
    expect(globToRegExp('out/*.{json,yml}').test('out/a.yml')).toBe(true);
    expect(globToRegExp('out/*.{json,yml}').test('out/sub/a.yml')).toBe(false);
    expect(globToRegExp('r[0-9].csv').test('r7.csv')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
    expect(globBase('data/**/*.json')).toBe('data');
    expect(globBase('*.json')).toBe('');
    expect(globBase('out/table.csv')).toBe('out');
    // Nested alternatives (the hand-written matcher could not), negated classes, dotfiles.
    expect(globToRegExp('{a,{b,c}}.json').test('c.json')).toBe(true);
    expect(globToRegExp('r[!0-9].csv').test('r7.csv')).toBe(false);
    expect(globToRegExp('data/*.json').test('data/.hidden.json')).toBe(true);
  });
});

describe('shards', () => {
  it('parses i/n and rejects the rest with a clear message', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '1-4', '']) expect(() => parseShard(bad)).toThrow(InvalidConfig);
    // Each entry point words its own example (issue 32 item 4).
    expect(() => parseShard('3/2')).toThrow(/input "shard": .*e\.g\. "\$\{\{ matrix\.shard \}\}\/4"/);
    expect(() => parseShard('3/2', CLI_INPUT_NAMES)).toThrow(/^--shard: "3\/2" .*e\.g\. --shard 2\/4/);
    // One rule: digits only (issue 18 §8) — these were accepted while 1.5/4 was refused.
    for (const bad of [' 1/4', '01/04', '1 / 4', '1/4\n', '1.5/4', '+1/4', '１/4']) {
      expect(() => parseShard(bad), JSON.stringify(bad)).toThrow(/digits only, no spaces or leading zeros/);
    }
  });
  it('puts every key in exactly one shard, case-insensitively, and spreads keys over all shards', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.integer({ min: 1, max: 16 }), (key, n) => {
        const owners = Array.from({ length: n }, (_, i) => i + 1).filter((i) => inShard(key, { index: i, count: n }));
        expect(owners).toEqual([shardOf(key, n)]);
        expect(shardOf(key.toUpperCase(), n)).toBe(shardOf(key.toLowerCase(), n));
      }),
    );
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 400; i++) counts[shardOf(`github/repo/o/r${i}.json`, 4) - 1]!++;
    expect(Math.min(...counts)).toBeGreaterThan(60);
  });
});

describe('conditional book', () => {
  const stored = { token: 'tok-a', entries: { 'GET /x': { etags: ['"e1"'], keys: ['k1', 'k2'] } } };
  it('offers the previous ETag only for the same token, and only while every document of the page exists', () => {
    expect(new ConditionalBook(stored, 'tok-a', () => true).etags('GET /x')).toEqual(['"e1"']);
    expect(new ConditionalBook(stored, 'tok-b', () => true).etags('GET /x')).toBeUndefined();
    expect(new ConditionalBook(stored, 'tok-a', (k) => k !== 'k2').etags('GET /x')).toBeUndefined();
    expect(new ConditionalBook(stored, 'tok-a', () => true, false).etags('GET /x')).toBeUndefined();
    expect(new ConditionalBook(stored, undefined, () => true).etags('GET /x')).toBeUndefined();
  });
  it('stores what this run saw, keys sorted and unique', () => {
    const book = new ConditionalBook(undefined, 'tok', () => true);
    book.save('GET /y', { etags: ['"e"'], next: '/y?page=2' });
    book.addKeys('GET /y', ['b', 'a', 'b']);
    expect(book.toState()).toEqual({
      token: 'tok',
      entries: { 'GET /y': { etags: ['"e"'], keys: ['a', 'b'], next: '/y?page=2' } },
    });
    expect(new ConditionalBook(undefined, undefined, () => true).toState()).toBeUndefined();
  });
});

describe('rate budget', () => {
  it('stops a request that would go below the floor, per resource, with the numbers', () => {
    const b = new RateBudget(10);
    b.check('core', 'first request'); // nothing seen yet
    b.observeHeaders({ 'x-ratelimit-remaining': '11', 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '1700000000' });
    b.check('core', 'GET /a');
    b.observeHeaders({ 'X-RateLimit-Remaining': '10', 'X-RateLimit-Limit': '60' });
    expect(() => b.check('core', 'GET /b')).toThrow(RateLimited);
    expect(() => b.check('core', 'GET /b')).toThrow(
      /before GET \/b: the REST rate limit has 10 of 60 left and min-rate-limit is 10/,
    );
    b.check('graphql', 'query'); // another resource
    b.observe('graphql', { remaining: 12, limit: 5000, reset: 0 });
    b.check('graphql', 'q', 2);
    expect(() => b.check('graphql', 'q', 3)).toThrow(/GraphQL/);
    expect(() => new RateBudget(0).check('core', 'x')).not.toThrow();
  });
});

describe('item templates and endpoints', () => {
  it('{item.<path>} reads strings, numbers and booleans from the item', () => {
    const parts = parseTemplate('{repo}/{item.run.id}-{item.ok}');
    const vars = itemVariables(parts, { repo: 'o/r' }, { run: { id: 7 }, ok: true });
    expect(renderTemplate(parts, vars)).toBe('o/r/7-true');
    expect(() => renderTemplate(parts, itemVariables(parts, { repo: 'o/r' }, { run: {} }))).toThrow(
      /\{item\.run\.id\} has no value/,
    );
  });
  it('follows Link rel="next" only on the API origin (the token never leaves it), GHES prefixes kept', () => {
    const api = { apiUrl: 'https://ghe.example/api/v3' };
    expect(nextOnOrigin(api, '<https://ghe.example/api/v3/orgs/o/repos?page=2>; rel="next"', 'x')).toBe(
      '/orgs/o/repos?page=2',
    );
    expect(nextOnOrigin(api, '<https://ghe.example/api/v3/x?page=9>; rel="last"', 'x')).toBeUndefined();
    expect(() => nextOnOrigin(api, '<https://evil.example/api/v3/x?page=2>; rel="next"', 'GET /x')).toThrow(
      /points at https:\/\/evil\.example, not the API origin https:\/\/ghe\.example; refusing to follow it/,
    );
  });
  it('fills {owner}, {name}, {repo} in endpoints', () => {
    expect(endpointPath('GET /repos/{repo}/actions/runs', 'o/r')).toBe('/repos/o/r/actions/runs');
    expect(endpointPath('GET /orgs/{owner}/teams', 'o/r')).toBe('/orgs/o/teams');
    expect(endpointPath('GET /meta')).toBe('/meta');
  });
  it('owner/* filters', () => {
    const repo = { archived: true, fork: false, private: false, topics: ['a', 'b'] };
    expect(matchesFilters(repo, {})).toBe(true);
    expect(matchesFilters(repo, { archived: false })).toBe(false);
    expect(matchesFilters(repo, { archived: 'only', forks: false, topics: ['b'] })).toBe(true);
    expect(matchesFilters(repo, { forks: 'only' })).toBe(false);
    expect(matchesFilters(repo, { visibility: 'private' })).toBe(false);
    expect(matchesFilters({ visibility: 'internal' }, { visibility: 'private' })).toBe(true);
    expect(matchesFilters(repo, { topics: ['a', 'c'] })).toBe(false);
  });
});

describe('spec rules of the new sources (file:line)', () => {
  it('defaults: type from the projection name, namespace data for http and files, raw reducer', () => {
    const spec = parseSpec(
      `projections:
  prices:
    source: { type: http, url: "https://data.example.com/p.json" }
    identity: { id: "{item.sku}" }
  reports:
    source: { type: files, glob: "out/*.json" }
  runs:
    source: { type: rest, endpoint: "GET /repos/{repo}/actions/runs", items: workflow_runs, repositories: "o/*", archived: false }
    identity: { id: "{repo}/{item.id}" }
`,
      'docdb.yml',
    );
    const [prices, reports, runs] = spec.projections;
    expect(prices!.identity).toEqual({ namespace: 'data', type: 'prices', id: '{item.sku}' });
    expect(prices!.source).toMatchObject({ url: ['https://data.example.com/p.json'] });
    expect(reports!.identity).toEqual({ namespace: 'data', type: 'reports', id: '{file}' });
    expect(reports!.source).toMatchObject({ glob: ['out/*.json'] });
    expect(runs!.reducer).toEqual({ builtin: 'raw' });
    expect(runs!.source).toMatchObject({ repositories: ['o/*'], archived: false });
  });
  it('reports bad fields with their line', () => {
    expect(specError('projections:\n  a:\n    source: { type: repository, api: soap }\n').message).toMatch(
      /docdb\.yml:3:\d+: projections\.a\.source\.api: must be graphql \(default\) or rest/,
    );
    expect(
      specError('projections:\n  a:\n    source: { type: repository, repositories: "o/*", archived: maybe }\n').message,
    ).toMatch(
      /projections\.a\.source\.archived: must be true \(include archived repositories\), false \(leave them out\) or "only"/,
    );
    expect(
      specError(
        'projections:\n  a:\n    source: { type: rest, endpoint: "GET /meta", repositories: [o/r] }\n    identity: { id: "{item.x}" }\n',
      ).message,
    ).toMatch(/projections\.a\.source\.repositories: the endpoint has no \{owner\}, \{name\} or \{repo\}/);
    expect(
      specError(
        'projections:\n  a:\n    source: { type: rest, endpoint: "GET /meta" }\n    identity: { id: "{repo}/{item.x}" }\n',
      ).message,
    ).toMatch(/projections\.a\.identity\.id: \{repo\} has no value: the endpoint is not read per repository/);
    expect(specError('projections:\n  a:\n    source: { type: files, glob: "/etc/*.json" }\n').message).toMatch(
      /docdb\.yml:3:\d+: projections\.a\.source\.glob: must be a relative glob/,
    );
    expect(
      specError(
        'projections:\n  a:\n    source: { type: http, url: "https://u:p@x.example/a" }\n    identity: { id: "{index}" }\n',
      ).message,
    ).toMatch(/projections\.a\.source\.url: must be an https:\/\/ URL without credentials/);
    expect(specError('projections:\n  _a:\n    source: { type: files, glob: "a.json" }\n').message).toMatch(
      /needs identity\.type/,
    );
    expect(
      specError(
        'projections:\n  a:\n    source: { type: issues, repositories: "o/*" }\n    identity: { id: "{item}" }\n',
      ).message,
    ).toMatch(/unknown template variable \{item\}/);
  });
});

describe('http source guards (fake fetch)', () => {
  const spec = (yaml: string) => parseSpec(yaml, 'docdb.yml');
  const SECRET = 's3cr3t-value-9f2';
  it('an unset header variable is explained in the words of the entry point (workflow env, or a shell export)', async () => {
    const run = (inputNames?: InputNames) =>
      runProjections({
        spec: spec(
          'projections:\n  x:\n    source: { type: http, url: "https://data.example.com/a.json", header: { name: X-Key, env: DATA_KEY } }\n    identity: { id: "{index}" }\n',
        ),
        client: { request: async () => ({ status: 200, headers: {}, data: [] }) },
        store: new MemoryRefStore(),
        fetch: (async () => new Response('[]')) as unknown as typeof globalThis.fetch,
        env: {},
        tokenIdentity: 'id',
        ...(inputNames ? { inputNames } : {}),
      }).then(
        () => new Error('the run did not fail'),
        (e: Error) => e,
      );
    const action = await run();
    expect(action.message).toContain('environment variable DATA_KEY (for the X-Key header) is not set');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow expression the Action's message shows
    expect(action.message).toContain('env: { DATA_KEY: ${{ secrets.DATA_KEY }} }');
    const cli = await run(CLI_INPUT_NAMES);
    expect(cli.message).toContain('environment variable DATA_KEY (for the X-Key header) is not set');
    expect(cli.message).toContain('export DATA_KEY=');
    expect(cli.message).not.toMatch(/secrets|\$\{\{/);
  });
  it('sends only the secret header it was given, and no error or log line ever contains the secret', async () => {
    const calls: { url: string; headers: Record<string, string> }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, headers: init.headers as Record<string, string> });
      return new Response('{"message":"boom"}', { status: 500 });
    }) as unknown as typeof globalThis.fetch;
    const lines: string[] = [];
    const err = await runProjections({
      spec: spec(
        'projections:\n  x:\n    source: { type: http, url: "https://data.example.com/a.json", header: { name: Authorization, env: TOK, prefix: "Token " } }\n    identity: { id: "{index}" }\n',
      ),
      client: { request: async () => ({ status: 200, headers: {}, data: [] }) },
      store: new MemoryRefStore(),
      fetch,
      sleep: async () => {},
      env: { TOK: SECRET, GITHUB_TOKEN: 'ghs_never_sent' },
      tokenIdentity: 'id',
      log: (l) => lines.push(l),
    }).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidResponse);
    // A 500 is retried (issue 18 §2) before the run fails.
    expect(err.message).toBe(
      'http source: GET https://data.example.com/a.json answered 500 (after 3 retries) (projection "x", docdb.yml:3)',
    );
    expect(JSON.stringify(err.toJSON())).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(calls).toHaveLength(4);
    for (const c of calls) expect(c.headers.authorization).toBe(`Token ${SECRET}`);
    expect(JSON.stringify(calls)).not.toContain('ghs_never_sent');
  });
});

describe('token identity', () => {
  it('is stable per token, differs between tokens, and never contains the token', () => {
    const a = tokenIdentity('ghp_aaaaaaaaaaaaaaaaaaaa');
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(tokenIdentity('ghp_aaaaaaaaaaaaaaaaaaaa')).toBe(a);
    expect(tokenIdentity('ghp_bbbbbbbbbbbbbbbbbbbb')).not.toBe(a);
    expect(tokenIdentity(undefined)).toBe('anonymous');
  });
});
