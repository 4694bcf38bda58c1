/**
 * The review's request budget and size limits at 20,000 documents (issue 39), in-process against the
 * emulator: a pull request that would modify 20,000 documents (~1 KB each) of a section, on a pull request
 * with 60 other comments and an earlier review comment, gets the complete review — the dry run, its
 * expectations, the before data, the preview, the comment edited in place, the check run — in at most 8
 * requests beyond what a dry run of the same projections costs and the preview commit's own requests (its
 * object writes, its ref create and the ref read every write makes). Counted in the emulator's request
 * log; every request beyond is listed when the budget is broken. Nothing fails on a size limit: the comment
 * stays ≤ 60,000 characters and the job summary ≤ 1 MiB.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import { type EmulatorHandle, pullRequestEvent } from '../../src/emulator/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { workspace } from './run-dist.js';

const TOKEN = 'ghs_ReviewBudgetToken0123456789abcdefabc';
const REPO = 'octo/budget';
const N = 20_000;
const BUDGET = 8;
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', bot: true, rateLimit: 10_000_000 });
  em.state.addPull(REPO, { title: 'Reprice everything', head: 'reprice', headSha: 'b'.repeat(40) });
  for (let i = 0; i < 60; i++) em.state.addComment(REPO, { issueNumber: 1, body: `comment ${i}` });
});
afterAll(async () => {
  await em?.stop();
});

const SPEC = `projections:
  rows:
    source: { type: files, glob: rows.csv }
    identity: { id: "{item.key}" }
    prune: true
    expect: { max-removed: "1%" }
`;
const PAD = 'x'.repeat(1000);
const csv = (suffix: string) =>
  `key,value\n${Array.from({ length: N }, (_, i) => `k${i},${PAD}${i}${suffix}`).join('\n')}\n`;

async function run(cwd: string, mode: string, event?: { name: string; path: string }) {
  const values: Record<string, string> = { token: TOKEN, 'api-url': em.url, repository: REPO, section: 'big', mode };
  const inputs = readInputs((n) => values[n] ?? '', {});
  return runAction(inputs, {
    workspace: cwd,
    writeSpacingMs: 0,
    run: { id: 8, attempt: 1 },
    ...(event ? { event } : {}),
  });
}

/** The preview commit's own requests: its objects, its ref's create, and the ref read its write makes. */
function previewOwn(r: { method: string; path: string }): boolean {
  if (r.method === 'POST' && /\/git\/(blobs|trees|commits|refs)$/.test(r.path)) return true;
  return r.method === 'GET' && r.path.endsWith('/git/ref/docdb/big.previews/pr-1');
}

describe('a review of 20,000 changed documents', () => {
  it(`costs ≤ ${BUDGET} requests beyond the dry run and the preview commit's own; comment ≤ 60,000 characters, summary ≤ 1 MiB`, async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv('') });
    expect((await run(cwd, 'project')).outputs.changed).toBe('true');
    const path = join(cwd, 'event.json');
    writeFileSync(path, JSON.stringify(pullRequestEvent(em.state, REPO, 1)));
    const event = { name: 'pull_request', path };
    writeFileSync(join(cwd, 'rows.csv'), csv('a'));
    const first = await run(cwd, 'review', event);
    expect(first.outputs['comment-url']).not.toBe('');

    // The pull request changes again: the same comment is edited, the check run and the preview replaced.
    writeFileSync(join(cwd, 'rows.csv'), csv('b'));
    em.clearLog();
    const review = await run(cwd, 'review', event);
    const reviewed = [...em.requests];
    em.clearLog();
    await run(cwd, 'dry-run');
    const dry = [...em.requests];

    expect(review.failed).toBeUndefined();
    expect(review.outputs).toMatchObject({ conclusion: 'success', changed: 'true', missing: '' });
    expect(review.outputs.review!.length).toBeLessThanOrEqual(60_000);
    expect(Buffer.byteLength(review.summary)).toBeLessThanOrEqual(1024 * 1024);
    expect(review.outputs.review).toMatch(/20,?000/);

    const own = reviewed.filter(previewOwn);
    const beyond = reviewed.filter((r) => !previewOwn(r)).slice(dry.length);
    const said = beyond.map((r) => `${r.method} ${r.path} ${r.status}`);
    console.log(
      `review: ${reviewed.length} requests = dry run ${dry.length} + preview commit ${own.length} + ${beyond.length} beyond:\n  ${said.join('\n  ')}`,
    );
    // The dry run's requests come first, the same ones.
    expect(
      reviewed
        .filter((r) => !previewOwn(r))
        .slice(0, dry.length)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(dry.map((r) => `${r.method} ${r.path}`));
    expect(said.length, said.join('\n')).toBeLessThanOrEqual(BUDGET);
    // One comment edit, no comment created.
    expect(said.filter((s) => s.startsWith('PATCH /repos/octo/budget/issues/comments/'))).toHaveLength(1);
    expect(said.filter((s) => s.startsWith('POST /repos/octo/budget/issues/1/comments'))).toHaveLength(0);
  }, 300_000);
});
