/**
 * The built Action prints no token of its own accord (issue 18 §4): when GitHub echoes the token in an
 * error, the failure message (`::error::…`), the log and the outputs hold it redacted — not only masked by
 * the runner's ::add-mask:: (a plain token such as a PAT of another shape would not even be recognisable).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { inputsFor, runDist, workspace } from './run-dist.js';

const TOKEN = 'plain-write-token-0123456789abcdef';
let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*' });
  em.state.createRepo('octo/app');
});
afterAll(() => em?.stop());

const inputs = inputsFor(() => ({ token: TOKEN, api: em.url, repository: 'octo/app' }));

describe('a token echoed by GitHub', () => {
  it.each([401, 403, 404, 422, 500])('HTTP %i on the ref read: the failure printed holds no token', async (status) => {
    em.inject({
      kind: 'status',
      status,
      path: '/repos/octo/app/git/ref',
      times: 10,
      body: { message: `token ${TOKEN} was refused`, documentation_url: 'https://docs.github.com/rest' },
    });
    const cwd = workspace({});
    const run = await runDist(inputs('redact', { mode: 'read', namespace: 'a', type: 'b', id: 'c' }), { cwd });
    em.clearFaults();
    expect(run.code).not.toBe(0);
    // setSecret announces the token to the runner once (::add-mask::); nothing else may carry it.
    const printed = `${run.stdout}\n${run.stderr}`
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n');
    expect(printed).toMatch(/::error::/);
    // A 404 on the ref read means "no section": GitHub's message is not part of that failure.
    if (status !== 404) expect(printed).toContain('[REDACTED]');
    expect(printed).not.toContain(TOKEN);
    expect(JSON.stringify(run.outputs)).not.toContain(TOKEN);
  });

  it('HTTP 500 echoing the token on a source request (Octokit, not the store): redacted by the Action itself', async () => {
    em.inject({
      kind: 'status',
      status: 500,
      path: /^\/repos\/octo\/app\/releases/,
      times: 10,
      body: { message: `upstream saw ${TOKEN}` },
    });
    const cwd = workspace({
      '.github/docdb.yml': 'projections:\n  rel:\n    source: { type: releases, repositories: [octo/app] }\n',
    });
    const run = await runDist(inputs('redact-source'), { cwd });
    em.clearFaults();
    expect(run.code).not.toBe(0);
    const printed = `${run.stdout}\n${run.stderr}`
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n');
    // A source failure is annotated on the spec's source line (`::error title=…,file=…,line=3::…`).
    expect(printed).toMatch(
      /::error title=docdb%3A UpstreamUnavailable,file=\.github\/docdb\.yml,line=3::.*\[REDACTED\]/,
    );
    expect(printed).not.toContain(TOKEN);
  });
});
