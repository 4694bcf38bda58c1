/**
 * `mode: compact`, run in-process with runAction (the same code dist/index.js bundles) against the
 * emulator: inputs checked before any request, the section compacted, the outputs and summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import { InvalidConfig, InvalidSpec } from '../../src/core/errors.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { workspace } from './run-dist.js';

const TOKEN = 'ghp_action_compact_token';
const REF = 'refs/docdb/documents';
let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  em.state.createRepo('octo/compact');
  for (let i = 0; i < 6; i++) {
    em.state.commitFiles('octo/compact', { branch: REF, orphan: i === 0, files: { 'state.json': `{"n":${i}}` } });
  }
});
afterAll(async () => {
  await em?.stop();
});

const inputs = (extra: Record<string, string>) => {
  const given: Record<string, string> = { token: TOKEN, 'api-url': em.url, repository: 'octo/compact', ...extra };
  return readInputs((n) => given[n] ?? '');
};

describe('mode: compact', () => {
  it('keeps the newest keep-commits commits; outputs changed, kept, version, previous-version', async () => {
    const before = em.state.repo('octo/compact').db.readRef(REF);
    const r = await runAction(inputs({ mode: 'compact', 'keep-commits': '2' }));
    expect(r.outputs).toMatchObject({ changed: 'true', kept: '2', 'previous-version': before });
    expect(r.outputs.version).toBe(em.state.repo('octo/compact').db.readRef(REF));
    expect(r.summary).toMatch(/2 commit\(s\) kept/);
    const again = await runAction(inputs({ mode: 'compact', 'keep-commits': '2' }));
    expect(again.outputs).toMatchObject({ changed: 'false', version: r.outputs.version });
  });

  it('refuses, before any request, a compaction that keeps nothing, a bad thin, and keep-* in another mode', () => {
    expect(() => inputs({ mode: 'compact' })).toThrow(/mode: compact needs keep-commits and\/or keep-days/);
    expect(() => inputs({ mode: 'compact', 'keep-days': '7', thin: 'month' })).toThrow(/input "thin"/);
    expect(() => inputs({ mode: 'compact', 'keep-commits': '0' })).toThrow(InvalidConfig);
    expect(() => inputs({ mode: 'project', 'keep-commits': '5' })).toThrow(/only applies to mode: compact/);
  });
});

describe('spec retention:', () => {
  const spec = (retention: string) => `retention: ${retention}
projections:
  repos:
    source: { type: repository, repositories: [octo-org/widgets] }
    identity: { namespace: github, type: repo, id: "{owner}/{name}" }
    reducer: repository
`;

  it('a run that writes is followed by a compaction; version is the tip after it', async () => {
    em.state.createRepo('octo/retained');
    for (let i = 0; i < 4; i++) {
      em.state.commitFiles('octo/retained', { branch: REF, orphan: i === 0, files: { [`old/${i}.json`]: '{}' } });
    }
    const cwd = workspace({ '.github/docdb.yml': spec('{ keep-commits: 2 }') });
    const given: Record<string, string> = { token: TOKEN, 'api-url': em.url, repository: 'octo/retained' };
    const r = await runAction(
      readInputs((n) => given[n] ?? ''),
      { workspace: cwd, writeSpacingMs: 0 },
    );
    expect(r.outputs.changed).toBe('true');
    expect(r.outputs.kept).toBe('2');
    const db = em.state.repo('octo/retained').db;
    expect(r.outputs.version).toBe(db.readRef(REF));
    const tip = db.getCommit(r.outputs.version!);
    expect(db.getCommit(tip.parents[0]!).parents).toEqual([]);
    expect(r.summary).toMatch(/Retention: history compacted to 2 commit\(s\)/);
  });

  it('a retention that keeps nothing, or a bad value, is a spec error naming the field', () => {
    expect(() => parseSpec(spec('{ thin: week }'))).toThrow(InvalidSpec);
    expect(() => parseSpec(spec('{ thin: week }'))).toThrow(/retention.*keeps nothing/s);
    expect(() => parseSpec(spec('{ keep-days: 0 }'))).toThrow(/retention.keep-days.*at least 1/s);
    expect(parseSpec(spec('{ keep-days: 30, thin: week }')).retention).toEqual({ keepDays: 30, thin: 'week' });
  });
});
