/**
 * Replays recorded real exchanges with api.github.com from @octokit/fixtures against the emulator:
 * the same requests must get the same status, the same response shape (keys and value types; ids,
 * URLs and SHAs may differ) and the headers clients rely on.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';
import { validateResponse } from './openapi-validator.js';

interface Exchange {
  method: string;
  path: string;
  body?: unknown;
  status: number;
  response: unknown;
  reqheaders: Record<string, string>;
  headers: Record<string, string>;
}

const fixturesDir = dirname(createRequire(import.meta.url).resolve('@octokit/fixtures/package.json'));
function scenario(name: string): Exchange[] {
  return JSON.parse(
    readFileSync(join(fixturesDir, 'scenarios', 'api.github.com', name, 'normalized-fixture.json'), 'utf8'),
  );
}

type Shape = string | { [k: string]: Shape } | Shape[];
/** Keys and JSON types, recursively; arrays are described by their first element. */
function shape(v: unknown): Shape {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0])];
  if (typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  }
  return typeof v;
}

/**
 * Keys GitHub has added to these responses since the exchanges were recorded (2017): error `status`
 * (2023), `has_discussions`, the merge-message settings and `user_view_type`. Only these may appear
 * in addition to the recorded keys; every recorded key must be present with the same type.
 */
const ADDED_SINCE_RECORDING = new Set([
  'status',
  'has_discussions',
  'user_view_type',
  'merge_commit_message',
  'merge_commit_title',
  'squash_merge_commit_message',
  'squash_merge_commit_title',
]);

function shapeDiff(got: Shape, want: Shape, at: string): string[] {
  if (typeof want === 'string' || typeof got === 'string')
    return got === want ? [] : [`${at || '(root)'}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`];
  if (Array.isArray(want) || Array.isArray(got)) {
    if (!Array.isArray(want) || !Array.isArray(got)) return [`${at}: array mismatch`];
    if (want.length === 0 || got.length === 0)
      return want.length === got.length ? [] : [`${at}: empty vs non-empty array`];
    return shapeDiff(got[0] as Shape, want[0] as Shape, `${at}[0]`);
  }
  const out: string[] = [];
  for (const k of Object.keys(want)) {
    if (!(k in got)) out.push(`${at}.${k}: missing`);
    else out.push(...shapeDiff(got[k] as Shape, want[k] as Shape, `${at}.${k}`));
  }
  for (const k of Object.keys(got))
    if (!(k in want) && !ADDED_SINCE_RECORDING.has(k)) out.push(`${at}.${k}: unexpected`);
  return out;
}

const FIXTURE_TOKEN = '0000000000000000000000000000000000000001';
let em: EmulatorHandle;
afterEach(() => em?.stop());

/** Send one recorded request (placeholders swapped for real SHAs) and compare the answer with the recording. */
async function replay(x: Exchange, swap: (s: string) => string) {
  const body = x.body === undefined || x.body === '' ? undefined : swap(JSON.stringify(x.body));
  const res = await fetch(`${em.url}${swap(x.path)}`, {
    method: x.method.toUpperCase(),
    headers: {
      ...x.reqheaders,
      host: new URL(em.url).host,
      'content-length': body === undefined ? '0' : String(Buffer.byteLength(body)),
    },
    body,
  });
  const text = await res.text();
  const json = text === '' ? undefined : JSON.parse(text);
  expect(res.status, `${x.method} ${x.path}`).toBe(x.status);
  expect(
    shapeDiff(shape(json), shape(x.response === '' ? undefined : x.response), ''),
    `${x.method} ${x.path}`,
  ).toEqual([]);
  for (const h of [
    'content-type',
    'access-control-allow-origin',
    'access-control-expose-headers',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
    'x-ratelimit-used',
    'x-ratelimit-resource',
    'etag',
    'location',
    'cache-control',
  ]) {
    if (x.headers[h] !== undefined) expect(res.headers.get(h), `${x.method} ${x.path} header ${h}`).not.toBeNull();
  }
  expect(res.headers.get('access-control-expose-headers')).toBe(x.headers['access-control-expose-headers']);
  if (x.headers['content-type']) expect(res.headers.get('content-type')).toBe(x.headers['content-type']);
  validateResponse(x.method.toUpperCase(), swap(x.path), res.status, json);
  return json;
}

describe('@octokit/fixtures replay', () => {
  it('git-refs: list, create, update and delete references', async () => {
    em = await startEmulator();
    em.state.createRepo('octokit-fixture-org/git-refs');
    const first = em.state.repo('octokit-fixture-org/git-refs').db.readRef('refs/heads/main') as string;
    const second = em.state.commitFiles('octokit-fixture-org/git-refs', { files: { 'test.txt': 'Test\n' } });
    em.state.addToken(FIXTURE_TOKEN, { login: 'octokit-fixture-user', repos: '*' });
    // The recording names the 2nd commit ...0001 and the initial commit ...0002.
    const swap = (s: string) =>
      s
        .replaceAll('0000000000000000000000000000000000000001', second)
        .replaceAll('0000000000000000000000000000000000000002', first);
    const exchanges = scenario('git-refs');
    expect(exchanges.map((x) => `${x.method} ${x.status}`)).toEqual([
      'get 200',
      'post 201',
      'patch 200',
      'get 200',
      'delete 204',
    ]);
    const results = [];
    for (const x of exchanges) results.push(await replay(x, swap));
    expect(results[3].map((r: { ref: string }) => r.ref)).toEqual(['refs/heads/main', 'refs/heads/test']);
    expect(em.state.repo('octokit-fixture-org/git-refs').db.readRef('refs/heads/test')).toBeUndefined();
  });

  it('get-repository: the repository description', async () => {
    em = await startEmulator();
    em.state.account('octokit-fixture-org', 'Organization');
    em.state.createRepo('octokit-fixture-org/hello-world', {
      defaultBranch: 'master',
      topics: ['fixtures', 'hello', 'hello-world'],
    });
    em.state.addToken(FIXTURE_TOKEN, { login: 'octokit-fixture-user', repos: '*' });
    const [x] = scenario('get-repository');
    const got = await replay(x as Exchange, (s) => s);
    expect(got).toMatchObject({
      full_name: 'octokit-fixture-org/hello-world',
      default_branch: 'master',
      private: false,
    });
  });

  it('errors: a 422 validation failure with an errors array', async () => {
    em = await startEmulator();
    em.state.createRepo('octokit-fixture-org/errors');
    em.state.addToken(FIXTURE_TOKEN, { login: 'octokit-fixture-user', repos: '*' });
    const [x] = scenario('errors');
    const got = await replay(x as Exchange, (s) => s);
    expect(got.errors).toEqual([{ resource: 'Label', code: 'invalid', field: 'color' }]);
    expect(got.message).toBe('Validation Failed');
  });
});
