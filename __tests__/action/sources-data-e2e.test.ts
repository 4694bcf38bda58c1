/**
 * The new sources end to end through the BUILT dist/index.js: `type: rest` (actions runs, Link paging,
 * `{item.id}`), `type: http` (JSON/CSV/NDJSON from a local server; never the GitHub token; a secret header
 * from an environment variable; redirects only to allowed hosts), `type: files` (workspace files, confined
 * to the workspace), and `owner/*` selections with filters over GraphQL and REST.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromUtf8 } from '../../src/core/bytes.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { warmGraphql } from '../emulator/warm-graphql.js';
import { ACTION_RUN_MS, inputsFor, runDist, workspace } from './run-dist.js';

const TARGET = 'octo-org/widgets';
const TOKEN = 'ghp_demo_write';
let em: EmulatorHandle;
let data: Server;
let dataUrl = '';
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];

function tree(section: string): Map<string, unknown> {
  const db = em.state.repo(TARGET).db;
  const tip = db.readRef(`refs/docdb/${section}`);
  const out = new Map<string, unknown>();
  if (!tip) return out;
  for (const e of db.flattenTree(db.getCommit(tip).tree)) {
    if (e.type === 'blob' && !e.path.startsWith('_docdb/'))
      out.set(e.path, JSON.parse(fromUtf8(db.getBlob(e.sha))).data);
  }
  return out;
}

const inputs = inputsFor(() => ({ token: TOKEN, api: em.url, repository: TARGET }));

beforeAll(async () => {
  await warmGraphql(); // the organisation listings below are GraphQL
  em = await startEmulator({ seed: DEMO_SEED });
  for (let i = 0; i < 5; i++) {
    em.state.addWorkflowRun('octo-org/gadgets', {
      name: i % 2 ? 'Release' : 'CI',
      conclusion: i === 3 ? 'failure' : 'success',
      createdAt: `2024-04-0${i + 1}T10:00:00Z`,
    });
  }
  data = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const etag = '"prices-v1"';
    if (req.url === '/prices.json') {
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', etag });
      res.end(
        JSON.stringify({
          data: {
            prices: [
              { sku: 'a-1', eur: 3 },
              { sku: 'b-2', eur: 5 },
            ],
          },
        }),
      );
    } else if (req.url === '/stock.csv') {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('sku,count,note\r\na-1,7,"fine, thanks"\r\nb-2,0,"said ""none"""\r\n');
    } else if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end('{"id":1,"kind":"open"}\n{"id":2,"kind":"close"}\n');
    } else if (req.url === '/moved') {
      // Another host name of this same server: allowed only through allow-hosts.
      res.writeHead(301, { location: `http://localhost:${(data.address() as AddressInfo).port}/events` });
      res.end();
    } else if (req.url === '/elsewhere') {
      res.writeHead(302, { location: 'https://evil.example/steal' });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => data.listen(0, '127.0.0.1', r));
  dataUrl = `http://127.0.0.1:${(data.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await em?.stop();
  await new Promise((r) => data?.close(r));
});

describe('type: rest', () => {
  it('reads a REST list endpoint per repository, following Link pages, with ids from item fields', async () => {
    const cwd = workspace({
      '.github/docdb.yml': `projections:
  runs:
    source:
      type: rest
      endpoint: GET /repos/{repo}/actions/runs
      items: workflow_runs
      params: { per_page: 2, status: completed }
      repositories: [octo-org/gadgets]
    identity: { type: run, id: "{repo}/{item.id}" }
    prune: true
`,
    });
    em.clearLog();
    const r = await runDist(inputs('e2e-rest'), { cwd });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.written).toBe('5');
    const runs = em.requests.filter((q) => q.operation === 'actions/list-workflow-runs-for-repo');
    expect(runs.map((q) => q.query)).toEqual([
      'per_page=2&status=completed',
      'per_page=2&status=completed&page=2',
      'per_page=2&status=completed&page=3',
    ]);
    const docs = tree('e2e-rest');
    // (The runs embed their repository, so the source is not the target: writing the section pushes to the target.)
    const ids = em.state.repo('octo-org/gadgets').workflowRuns.map((w) => `github/run/octo-org/gadgets/${w.id}.json`);
    expect([...docs.keys()].sort()).toEqual(ids.sort());
    expect(docs.get(ids[3]!)).toMatchObject({ conclusion: 'failure', name: 'Release' });
    // Re-run with the same token: every page answers 304 and nothing is committed.
    em.clearLog();
    const again = await runDist(inputs('e2e-rest'), { cwd });
    expect(again.outputs.changed).toBe('false');
    const pages = em.requests.filter((q) => q.operation === 'actions/list-workflow-runs-for-repo');
    expect(pages.map((q) => q.status)).toEqual([304, 304, 304]);
    expect(again.outputs.unchanged).toBe('5');
  });

  it('spec errors name the line: only GET on the API, {repo} needs repositories, ids need identity.id', async () => {
    const cwd = workspace({
      '.github/docdb.yml': `projections:
  runs:
    source:
      type: rest
      endpoint: DELETE https://evil.example/x
`,
    });
    const r = await runDist(inputs('e2e-rest-bad'), { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /docdb\.yml:5:\d+: projections\.runs\.source\.endpoint: must be "GET \/path" on the GitHub API/,
    );
    const cwd2 = workspace({
      '.github/docdb.yml':
        'projections:\n  runs:\n    source: { type: rest, endpoint: "GET /repos/{repo}/actions/runs", items: workflow_runs }\n',
    });
    const r2 = await runDist(inputs('e2e-rest-bad'), { cwd: cwd2 });
    expect(r2.stdout).toMatch(
      /docdb\.yml:3:\d+: projections\.runs\.source: identity\.id is required for a rest source .*"\{repo\}\/\{item\.id\}"/,
    );
  });
});

describe('type: http', () => {
  it('JSON (items path, ETag), CSV and NDJSON; the GitHub token never leaves, the secret header only goes where listed', async () => {
    const cwd = workspace({
      '.github/docdb.yml': `projections:
  prices:
    source:
      type: http
      url: ${dataUrl}/prices.json
      items: data.prices
      header: { name: X-Api-Key, env: PRICES_KEY }
    identity: { id: "{item.sku}" }
  stock:
    source: { type: http, url: "${dataUrl}/stock.csv" }
    identity: { id: "{item.sku}" }
  events:
    source: { type: http, url: "${dataUrl}/events" }
    identity: { id: "event-{item.id}" }
`,
    });
    seen.length = 0;
    const r = await runDist(inputs('e2e-http'), { cwd, env: { PRICES_KEY: 'k3y-from-secret' } });
    expect(r.code, r.stdout).toBe(0);
    const docs = tree('e2e-http');
    expect(docs.get('data/prices/a-1.json')).toEqual({ sku: 'a-1', eur: 3 });
    expect(docs.get('data/stock/a-1.json')).toEqual({ sku: 'a-1', count: '7', note: 'fine, thanks' });
    expect(docs.get('data/stock/b-2.json')).toEqual({ sku: 'b-2', count: '0', note: 'said "none"' });
    expect(docs.get('data/events/event-2.json')).toEqual({ id: 2, kind: 'close' });
    expect(seen.map((s) => s.path)).toEqual(['/prices.json', '/stock.csv', '/events']);
    for (const s of seen) {
      expect(s.headers.authorization).toBeUndefined();
      expect(JSON.stringify(s.headers)).not.toContain(TOKEN);
    }
    expect(seen[0]!.headers['x-api-key']).toBe('k3y-from-secret');
    expect(seen[1]!.headers['x-api-key']).toBeUndefined();
    expect(r.stdout).not.toContain('k3y-from-secret');
    seen.length = 0;
    const again = await runDist(inputs('e2e-http'), { cwd, env: { PRICES_KEY: 'k3y-from-secret' } });
    expect(again.outputs.changed).toBe('false');
    expect(seen[0]!.headers['if-none-match']).toBe('"prices-v1"');
  });

  it('refuses redirects to hosts the spec does not list, plain http to other hosts, and a missing secret', async () => {
    const redirect = workspace({
      '.github/docdb.yml': `projections:\n  x:\n    source: { type: http, url: "${dataUrl}/elsewhere" }\n    identity: { id: "{index}" }\n`,
    });
    const r = await runDist(inputs('e2e-http-bad'), { cwd: redirect });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/redirects to https:\/\/evil\.example, which the spec does not allow/);
    const moved = (allow: string) =>
      workspace({
        '.github/docdb.yml': `projections:\n  x:\n    source: { type: http, url: "${dataUrl}/moved"${allow} }\n    identity: { id: "{item.id}" }\n`,
      });
    const refused = await runDist(inputs('e2e-http-moved'), { cwd: moved('') });
    expect(refused.stdout).toMatch(
      /redirects to http:\/\/localhost:\d+, which the spec does not allow; add "localhost:\d+" to allow-hosts/,
    );
    const port = (data.address() as AddressInfo).port;
    const allowed = await runDist(inputs('e2e-http-moved'), { cwd: moved(`, allow-hosts: ["localhost:${port}"]`) });
    expect(allowed.code, allowed.stdout).toBe(0);
    expect(allowed.outputs.written).toBe('2');
    const plain = workspace({
      '.github/docdb.yml':
        'projections:\n  x:\n    source: { type: http, url: "http://data.example.com/a.json" }\n    identity: { id: "{index}" }\n',
    });
    expect((await runDist(inputs('e2e-http-bad'), { cwd: plain })).stdout).toMatch(
      /docdb\.yml:3:\d+: projections\.x\.source\.url: plain http is only allowed to localhost/,
    );
    const secret = workspace({
      '.github/docdb.yml': `projections:\n  x:\n    source: { type: http, url: "${dataUrl}/prices.json", header: { name: X-Api-Key, env: MISSING_KEY } }\n    identity: { id: "{index}" }\n`,
    });
    expect((await runDist(inputs('e2e-http-bad'), { cwd: secret })).stdout).toMatch(
      /environment variable MISSING_KEY .* is not set/,
    );
  });
});

describe('type: files', () => {
  it('commits workspace files (JSON, YAML, CSV) atomically; prune follows deleted files', async () => {
    const cwd = workspace({
      '.github/docdb.yml': `projections:
  reports:
    source: { type: files, glob: "out/**/*.{json,yml}" }
    prune: true
  rows:
    source: { type: files, glob: out/table.csv }
    identity: { id: "{item.key}" }
`,
      'out/a.json': '{ "score": 1 }',
      'out/nested/b.yml': 'score: 2\ntags: [x, y]\n',
      'out/table.csv': 'key,value\nk1,v1\nk2,v2\n',
      'out/ignored.txt': 'not matched',
    });
    const dry = await runDist(inputs('e2e-files', { mode: 'dry-run' }), { cwd });
    expect(dry.code, dry.stdout).toBe(0);
    expect(JSON.parse(dry.outputs.keys!)).toHaveLength(4);
    expect(tree('e2e-files').size).toBe(0);
    const r = await runDist(inputs('e2e-files'), { cwd });
    expect(r.code, r.stdout).toBe(0);
    const docs = tree('e2e-files');
    expect([...docs.keys()].sort()).toEqual([
      'data/reports/out/a.json',
      'data/reports/out/nested/b.json',
      'data/rows/k1.json',
      'data/rows/k2.json',
    ]);
    expect(docs.get('data/reports/out/nested/b.json')).toEqual({ score: 2, tags: ['x', 'y'] });
    writeFileSync(join(cwd, 'out/a.json'), '{ "score": 10 }');
    rmSync(join(cwd, 'out/nested/b.yml'));
    const again = await runDist(inputs('e2e-files'), { cwd });
    expect(JSON.parse(again.outputs.keys!)).toEqual(['data/reports/out/a.json', 'data/reports/out/nested/b.json']);
    expect(again.outputs.deleted).toBe('1');
  });

  it('never reads outside the workspace: ".." globs are spec errors, symbolic links out are refused', async () => {
    const outside = join(tmpdir(), `docdb-outside-${process.pid}`);
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'secret.json'), '{ "secret": true }');
    const cwd = workspace({
      '.github/docdb.yml': 'projections:\n  x:\n    source: { type: files, glob: "data/*.json" }\n',
    });
    mkdirSync(join(cwd, 'data'));
    symlinkSync(join(outside, 'secret.json'), join(cwd, 'data/link.json'));
    const r = await runDist(inputs('e2e-files-bad'), { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/data\/link\.json is a symbolic link to .*outside the workspace/);
    symlinkSync(outside, join(cwd, 'linked-dir'));
    writeFileSync(
      join(cwd, '.github/docdb.yml'),
      'projections:\n  x:\n    source: { type: files, glob: "linked-dir/*.json" }\n',
    );
    expect((await runDist(inputs('e2e-files-bad'), { cwd })).stdout).toMatch(/linked-dir leads outside the workspace/);
    writeFileSync(
      join(cwd, '.github/docdb.yml'),
      'projections:\n  x:\n    source: { type: files, glob: "../*.json" }\n',
    );
    expect((await runDist(inputs('e2e-files-bad'), { cwd })).stdout).toMatch(
      /docdb\.yml:3:\d+: projections\.x\.source\.glob: must be a relative glob inside the workspace/,
    );
    expect(tree('e2e-files-bad').size).toBe(0);
    rmSync(outside, { recursive: true, force: true });
  });
});

describe('owner/* selections', () => {
  it('every repository of an organisation or user, filtered; GraphQL and REST agree; other sources expand too', {
    timeout: 4 * ACTION_RUN_MS,
  }, async () => {
    em.state.createRepo('octo-org/old-fork', { fork: true, archived: true, topics: ['demo'] });
    const spec = (api: string) => `projections:
  repos:
    source: { type: repository, api: ${api}, repositories: ["octo-org/*", "octocat/*"], archived: false, topics: [demo] }
  all:
    source: { type: repository, api: ${api}, repositories: ["octo-org/*"] }
    identity: { type: any }
  issues:
    source: { type: issues, repositories: ["octo-org/*"], forks: false, visibility: public }
`;
    const g = await runDist(inputs('e2e-owner-gql'), { cwd: workspace({ '.github/docdb.yml': spec('graphql') }) });
    expect(g.code, g.stdout).toBe(0);
    const rest = await runDist(inputs('e2e-owner-rest'), { cwd: workspace({ '.github/docdb.yml': spec('rest') }) });
    expect(rest.code, rest.stdout).toBe(0);
    const docs = tree('e2e-owner-gql');
    const keys = [...docs.keys()].sort();
    // Only widgets carries the "demo" topic and is not archived; octocat has none.
    expect(keys.filter((k) => k.startsWith('github/repo/'))).toEqual(['github/repo/octo-org/widgets.json']);
    expect(keys.filter((k) => k.startsWith('github/any/'))).toEqual([
      'github/any/octo-org/gadgets.json',
      'github/any/octo-org/old-fork.json',
      'github/any/octo-org/secret-plans.json',
      'github/any/octo-org/widgets.json',
    ]);
    expect(keys.filter((k) => k.startsWith('github/issue/')).every((k) => /octo-org\/(widgets|gadgets)#/.test(k))).toBe(
      true,
    );
    expect([...tree('e2e-owner-rest').entries()]).toEqual([...docs.entries()]);
    const missing = await runDist(inputs('e2e-owner-bad'), {
      cwd: workspace({
        '.github/docdb.yml': 'projections:\n  r:\n    source: { type: repository, repositories: "ghost-org/*" }\n',
      }),
    });
    expect(missing.stdout).toMatch(/"ghost-org\/\*": no organisation or user "ghost-org"/);
    const filterless = await runDist(inputs('e2e-owner-bad'), {
      cwd: workspace({
        '.github/docdb.yml':
          'projections:\n  r:\n    source: { type: repository, repositories: [a/b], forks: false }\n',
      }),
    });
    expect(filterless.stdout).toMatch(
      /projections\.r\.source\.forks: filters \(forks\) apply to "owner\/\*" selections/,
    );
  });
});
