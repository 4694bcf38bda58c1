/**
 * The BUILT dist/index.js in `mode: changes` (documents added/changed/removed since a stored version)
 * and `mode: read` at a version that is not a commit of the section (InvalidVersion).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { DIST, runDist, workspace } from './run-dist.js';

const TARGET = 'octo-org/widgets';
let em: EmulatorHandle;
const SPEC = (repos: string[]) => `projections:
  repos:
    source: { type: repository, repositories: [${repos.join(', ')}] }
    identity: { namespace: github, type: repo, id: "{owner}/{name}" }
    reducer: repository
    prune: true
`;
const inputs = (extra: Record<string, string> = {}) => ({
  token: 'ghp_demo_write',
  'api-url': em.url,
  repository: TARGET,
  section: 'e2e-changes',
  ...extra,
});

beforeAll(async () => {
  if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run "npm run build:action"');
  em = await startEmulator({ seed: DEMO_SEED });
});
afterAll(async () => {
  await em?.stop();
});

describe('mode: changes', () => {
  it('lists the documents added, changed and removed since a stored version', async () => {
    const cwd1 = workspace({ '.github/docdb.yml': SPEC(['octo-org/widgets', 'octo-org/gadgets']) });
    const first = await runDist(inputs(), { cwd: cwd1 });
    expect(first.code, first.stdout).toBe(0);
    const v1 = first.outputs.version!;
    em.state.addBranch('octo-org/widgets', 'changes-branch');
    const cwd2 = workspace({ '.github/docdb.yml': SPEC(['octo-org/widgets', 'octocat/hello-world']) });
    const second = await runDist(inputs(), { cwd: cwd2 });
    expect(second.outputs.changed).toBe('true');
    const r = await runDist(inputs({ mode: 'changes', since: v1 }), { cwd: cwd2 });
    expect(r.code, r.stdout).toBe(0);
    const ids = (out: string) => (JSON.parse(r.outputs[out]!) as { id: string }[]).map((d) => d.id);
    expect(ids('added')).toEqual(['octocat/hello-world']);
    expect(ids('modified')).toEqual(['octo-org/widgets']);
    expect(ids('removed')).toEqual(['octo-org/gadgets']);
    expect(r.outputs.version).toBe(second.outputs.version);
    expect(r.outputs['previous-version']).toBe(v1);
    expect(r.outputs.changed).toBe('true');
    expect(r.summary).toContain('1 added, 1 changed, 1 removed');
    const none = await runDist(inputs({ mode: 'changes', since: second.outputs.version! }), { cwd: cwd2 });
    expect(none.outputs.changed).toBe('false');
    expect(JSON.parse(none.outputs.keys!)).toEqual([]);
    const missing = await runDist(inputs({ mode: 'changes' }), { cwd: cwd2 });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/input "since": is required with mode: changes/);
  });

  it("mode: read at main's tip (not a commit of the section) fails with InvalidVersion", async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC(['octo-org/widgets']) });
    await runDist(inputs({ section: 'e2e-foreign' }), { cwd });
    const main = em.state.repo(TARGET).db.readRef('refs/heads/main')!;
    const r = await runDist(
      inputs({ section: 'e2e-foreign', mode: 'read', namespace: 'github', type: 'repo', id: TARGET, version: main }),
      { cwd },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::.*not a commit of the section/);
  });
});
