/** `docdb demo` in-process (the dist path is covered by dist-e2e.test.ts). */
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('docdb demo', () => {
  it('runs the Action on the demo seed, re-runs without a commit and reads a document back', async () => {
    const r = await runCli(['demo', '--in-process']);
    const text = r.stdout;
    expect(r.code, text + r.stderr).toBe(0);
    expect(text).toMatch(/running the Action in-process/);
    expect(text).toMatch(/\| repos \| repository \| 3 \| 0 \| 0 \| 0 \| 0 \|/);
    expect(text).toMatch(/\| release-notes \| releases \| 3 \| 0 \| 0 \| 0 \| 1 \|/); // the custom reducer module
    expect(text).toMatch(/changed = true/);
    expect(text).toMatch(/second run with unchanged sources: changed=false.* of which 0 writes — no commit/);
    expect(text).toMatch(/"fullName": "octo-org\/widgets"/);
    expect(text).toMatch(/\(2 requests: ref \+ one contents read\)/);
    expect(text).toMatch(/outputs.document = github\/release\/octo-org\/widgets@v1.0.0 "First release"/);
  });

  it('with --json, progress goes to stderr and stdout is one JSON summary', async () => {
    const r = await runCli(['demo', '--in-process', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/second run with unchanged sources/);
    expect(r.json()).toMatchObject({
      ok: true,
      outputs: { changed: 'true' },
      rerun: { changed: false, writes: 0 },
      document: { namespace: 'github', type: 'repo', id: 'octo-org/widgets' },
    });
  });
});
