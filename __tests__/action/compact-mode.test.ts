/**
 * `mode: compact`, run in-process with runAction (the same code dist/index.js bundles) against the
 * emulator: inputs checked before any request, the section compacted, the outputs and summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import { InvalidConfig } from '../../src/core/errors.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';

const TOKEN = 'ghp_action_compact_token';
const REF = 'refs/docdb/documents';
let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator();
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
