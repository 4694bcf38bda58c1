/** `docdb doc get` and `docdb demo` (in-process; the dist path is covered by dist-e2e.test.ts). */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { DocumentStore } from '../../src/document/index.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/fetch.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
});
afterAll(async () => {
  await em?.stop();
  vi.restoreAllMocks();
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a) => void err.push(a.join(' ')));
  return {
    out,
    err,
    restore() {
      log.mockRestore();
      error.mockRestore();
    },
  };
}

describe('docdb doc get', () => {
  it('reads an envelope at the tip and at a version', async () => {
    const store = new RemoteApiRefStore({
      transport: fetchTransport(),
      apiUrl: em.url,
      owner: 'octo-org',
      repo: 'widgets',
      ref: 'refs/docdb/cli',
      token: 'ghp_demo_write',
    });
    const docs = new DocumentStore(store);
    const v1 = (await docs.put({ namespace: 'github', type: 'repo', id: 'octo-org/widgets', data: { n: 1 } })).version!;
    await docs.put({ namespace: 'github', type: 'repo', id: 'octo-org/widgets', data: { n: 2 } });
    process.env.DOCDB_TEST_TOKEN = 'ghp_demo_write';
    const args = [
      'doc',
      'get',
      '--api-url',
      em.url,
      '--repo',
      'octo-org/widgets',
      '--section',
      'cli',
      '--token-env',
      'DOCDB_TEST_TOKEN',
    ];
    const id = ['--namespace', 'github', '--type', 'repo', '--id', 'octo-org/widgets'];
    let c = capture();
    expect(await main([...args, ...id])).toBe(0);
    c.restore();
    expect(JSON.parse(c.out.join('\n'))).toMatchObject({ id: 'octo-org/widgets', data: { n: 2 } });
    c = capture();
    expect(await main([...args, ...id, '--version', v1])).toBe(0);
    c.restore();
    expect(JSON.parse(c.out.join('\n'))).toEqual({
      namespace: 'github',
      type: 'repo',
      id: 'octo-org/widgets',
      version: v1,
      data: { n: 1 },
    });
    c = capture();
    expect(await main([...args, '--namespace', 'github', '--type', 'repo', '--id', 'no/such'])).toBe(1);
    c.restore();
    expect(c.err.join('\n')).toMatch(/document github\/repo\/no\/such not found in octo-org\/widgets refs\/docdb\/cli/);
    c = capture();
    expect(await main(['doc', 'get', '--namespace', 'x'])).toBe(2);
    c.restore();
    expect(c.err.join('\n')).toMatch(/--type is required/);
  });
});

describe('docdb demo', () => {
  it('runs the Action on the demo seed, re-runs without a commit and reads a document back', async () => {
    const c = capture();
    const code = await main(['demo', '--in-process']);
    c.restore();
    const text = c.out.join('\n');
    expect(code, text + c.err.join('\n')).toBe(0);
    expect(text).toMatch(/running the Action in-process/);
    expect(text).toMatch(/\| repos \| repository \| 3 \| 0 \| 0 \| 0 \| 0 \|/);
    expect(text).toMatch(/\| release-notes \| releases \| 3 \| 0 \| 0 \| 0 \| 1 \|/); // the custom reducer module
    expect(text).toMatch(/changed = true/);
    expect(text).toMatch(/second run with unchanged sources: changed=false.* of which 0 writes — no commit/);
    expect(text).toMatch(/"fullName": "octo-org\/widgets"/);
    expect(text).toMatch(/\(4 requests: ref, commit, tree, blob\)/);
    expect(text).toMatch(/outputs.document = github\/release\/octo-org\/widgets@v1.0.0 "First release"/);
  });
});
