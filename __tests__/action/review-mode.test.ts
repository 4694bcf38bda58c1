/**
 * `mode: review` and `mode: review-publish` end to end in-process (issue 39) against the emulator, with
 * the real review builder, renderers and publisher: a same-repository pull request (preview, one sticky
 * comment, a check run on the head commit), re-runs (the comment edited in place; unchanged → no comment
 * write), a fork (read-only token: no preview, no comment, the review file written, the step passes),
 * missing permissions (notes, never a failure), a failing expectation (the step fails, the check says
 * failure), and review-publish of a fork's file — refused when the file is forged (wrong head commit,
 * oversized) or the workflow run is about another commit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import { type EmulatorHandle, pullRequestEvent } from '../../src/emulator/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { workspace } from './run-dist.js';

const WRITER = 'ghs_ReviewModeWriter0123456789abcdefabcd';
const NO_PUBLISH = 'ghs_ReviewModeNoPublish0123456789abcdef';
const FORK_TOKEN = 'ghs_ReviewModeForkRun0123456789abcdefab';
const REPO = 'octo/reviewed';
const FORK = 'forker/reviewed';
const HEAD = 'c0ffee'.padEnd(40, '1');
const FORK_HEAD = 'f0f0f0'.padEnd(40, '2');
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.createRepo(FORK);
  em.state.addToken(WRITER, { login: 'octo', bot: true, rateLimit: 1_000_000 });
  em.state.addToken(NO_PUBLISH, {
    login: 'octo',
    bot: true,
    rateLimit: 1_000_000,
    permissions: { contents: 'write', 'pull-requests': 'read', checks: 'read' },
  });
  // A fork's pull_request run: GITHUB_TOKEN with read permissions only.
  em.state.addToken(FORK_TOKEN, {
    login: 'octo',
    bot: true,
    rateLimit: 1_000_000,
    permissions: { contents: 'read', 'pull-requests': 'read', checks: 'read', statuses: 'read' },
  });
  em.state.addPull(REPO, { title: 'More data', head: 'change', headSha: HEAD });
  em.state.addPull(REPO, { title: 'From a fork', head: 'change', headRepo: FORK, headSha: FORK_HEAD });
});
afterAll(async () => {
  await em?.stop();
});

const SPEC = (expect = 'max-removed: "50%"') => `projections:
  rows:
    source: { type: files, glob: rows.csv }
    identity: { id: "{item.key}" }
    prune: true
    expect: { ${expect} }
`;
const csv = (n: number, suffix = '') =>
  `key,value\n${Array.from({ length: n }, (_, i) => `k${i},v${i}${suffix}`).join('\n')}\n`;

const db = () => em.state.repo(REPO).db;
const tipOf = (ref: string) => db().readRef(ref) ?? null;

async function api(path: string): Promise<unknown> {
  const res = await fetch(`${em.url}${path}`, { headers: { authorization: `Bearer ${WRITER}` } });
  return res.json();
}
const comments = async (n: number) =>
  (await api(`/repos/${REPO}/issues/${n}/comments?per_page=100`)) as { id: number; body: string }[];
const checkRuns = async (sha: string) =>
  (
    (await api(`/repos/${REPO}/commits/${sha}/check-runs`)) as {
      check_runs: { name: string; conclusion: string; output: { annotations_count: number } }[];
    }
  ).check_runs;

function eventFile(cwd: string, event: unknown, name = 'event.json'): string {
  const path = join(cwd, name);
  writeFileSync(path, JSON.stringify(event));
  return path;
}

async function run(
  cwd: string,
  section: string,
  values: Record<string, string>,
  event?: { name: string; path: string },
  token = WRITER,
) {
  const all: Record<string, string> = { token, 'api-url': em.url, repository: REPO, section, ...values };
  const inputs = readInputs((n) => all[n] ?? '', {});
  const lines: string[] = [];
  const result = await runAction(inputs, {
    workspace: cwd,
    writeSpacingMs: 0,
    run: { id: 5, attempt: 1 },
    log: (l) => lines.push(l),
    ...(event ? { event } : {}),
  });
  return { ...result, lines };
}

const commentWrites = () =>
  em.requests.filter((r) => (r.method === 'POST' || r.method === 'PATCH') && /\/issues\/(\d+\/)?comments/.test(r.path));

describe('mode: review', () => {
  it('a same-repository pull request: preview, one sticky comment edited in place, a check run; the section never moves', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(10) });
    await run(cwd, 'same', {});
    const tip = tipOf('refs/docdb/same')!;
    writeFileSync(join(cwd, 'rows.csv'), csv(9, '!'));
    const event = { name: 'pull_request', path: eventFile(cwd, pullRequestEvent(em.state, REPO, 1)) };

    const inputs = { mode: 'review', 'review-file': 'docdb-review.json', 'viewer-url': 'https://octo.github.io/data/' };
    const first = await run(cwd, 'same', inputs, event);
    expect(first.failed).toBeUndefined();
    expect(tipOf('refs/docdb/same')).toBe(tip);
    const preview = tipOf('refs/docdb/same.previews/pr-1')!;
    expect(first.outputs).toMatchObject({
      conclusion: 'success',
      changed: 'true',
      version: preview,
      'preview-ref': 'refs/docdb/same.previews/pr-1',
      'previous-version': tip,
      missing: '',
    });
    expect(first.outputs.review).toContain('<!-- docdb-review: refs/docdb/same -->');
    expect(first.outputs.review).toContain(`from=${tip}`);
    expect(first.outputs['review-file']).toMatch(/docdb-review\.json$/);
    expect(JSON.parse(readFileSync(first.outputs['review-file']!, 'utf8'))).toMatchObject({
      pullRequest: 1,
      headSha: HEAD,
      rowCount: 10,
    });
    const posted = await comments(1);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body).toBe(first.outputs.review);
    expect(first.outputs['comment-url']).not.toBe('');
    expect((await checkRuns(HEAD)).map((c) => [c.name, c.conclusion])).toEqual([['docdb: same', 'success']]);

    // Re-run with nothing new: the same comment text, no comment write; the preview is replaced.
    em.clearLog();
    const again = await run(cwd, 'same', inputs, event);
    // The same change on the same tip: the very same preview commit (its author and date are pinned).
    expect(again.outputs.version).toBe(preview);
    expect(again.outputs.review).toBe(first.outputs.review);
    expect(commentWrites()).toEqual([]);
    expect(again.lines).toContain(
      'review comment: unchanged' + (again.outputs['comment-url'] ? ` (${again.outputs['comment-url']})` : ''),
    );
    expect(await comments(1)).toHaveLength(1);

    // A new push changes the review: the one comment is edited in place.
    writeFileSync(join(cwd, 'rows.csv'), csv(8, '?'));
    em.clearLog();
    const third = await run(cwd, 'same', inputs, event);
    expect(third.outputs.version).not.toBe(preview);
    expect(commentWrites().map((r) => r.method)).toEqual(['PATCH']);
    const after = await comments(1);
    expect(after).toHaveLength(1);
    expect(after[0]!.body).toBe(third.outputs.review);
    expect(tipOf('refs/docdb/same')).toBe(tip);
  });

  it('a fork: read-only token — no preview, no comment, no check; the review in the output, the summary and the file; the step passes', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(10) });
    await run(cwd, 'fork', {});
    writeFileSync(join(cwd, 'rows.csv'), csv(9));
    const event = { name: 'pull_request', path: eventFile(cwd, pullRequestEvent(em.state, REPO, 2)) };
    em.clearLog();
    // out/ does not exist yet: it is made (inside the workspace).
    const result = await run(cwd, 'fork', { mode: 'review', 'review-file': 'out/review.json' }, event, FORK_TOKEN);
    expect(result.failed).toBeUndefined();
    expect(tipOf('refs/docdb/fork.previews/pr-2')).toBeNull();
    expect(em.requests.filter((r) => r.method !== 'GET' && r.operation !== 'graphql')).toEqual([]);
    expect(await comments(2)).toEqual([]);
    expect(result.outputs).toMatchObject({ version: '', 'comment-url': '', conclusion: 'success' });
    expect(result.outputs.review).toMatch(/fork/);
    expect(result.summary).toContain('k9');
    expect(JSON.parse(readFileSync(result.outputs['review-file']!, 'utf8'))).toMatchObject({
      pullRequest: 2,
      headSha: FORK_HEAD,
      preview: null,
    });
  });

  it('without pull-requests: write and checks: write: notes naming them, the step does not fail', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(4) });
    await run(cwd, 'denied', {});
    writeFileSync(join(cwd, 'rows.csv'), csv(3));
    const event = { name: 'pull_request', path: eventFile(cwd, pullRequestEvent(em.state, REPO, 1)) };
    const result = await run(cwd, 'denied', { mode: 'review' }, event, NO_PUBLISH);
    expect(result.failed).toBeUndefined();
    expect(result.outputs.missing).toBe('pull-requests: write, checks: write');
    expect(result.summary).toContain('The token lacks pull-requests: write, checks: write');
    expect(result.lines.filter((l) => l.startsWith('warning: the token lacks'))).toHaveLength(2);
    expect(tipOf('refs/docdb/denied.previews/pr-1')).not.toBeNull();
  });

  it('a failing expectation fails the step with annotations on the expect: line; the check says failure', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC('max-removed: 1'), 'rows.csv': csv(10) });
    await run(cwd, 'failing', {});
    const tip = tipOf('refs/docdb/failing');
    writeFileSync(join(cwd, 'rows.csv'), csv(5));
    const event = { name: 'pull_request', path: eventFile(cwd, pullRequestEvent(em.state, REPO, 1)) };
    const result = await run(cwd, 'failing', { mode: 'review' }, event);
    expect(result.outputs.conclusion).toBe('failure');
    expect(result.failed?.message).toMatch(/^docdb review: 1 expectation violation\(s\) in pull request #1/);
    expect(result.failed?.annotations[0]?.properties).toMatchObject({ file: '.github/docdb.yml', startLine: 6 });
    expect((await checkRuns(HEAD)).find((c) => c.name === 'docdb: failing')?.conclusion).toBe('failure');
    expect(tipOf('refs/docdb/failing')).toBe(tip);
  });
});

describe('mode: review-publish', () => {
  async function forkReview(section: string) {
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(6) });
    await run(cwd, section, {});
    writeFileSync(join(cwd, 'rows.csv'), csv(5));
    const event = { name: 'pull_request', path: eventFile(cwd, pullRequestEvent(em.state, REPO, 2)) };
    const r = await run(cwd, section, { mode: 'review', 'review-file': 'review.json' }, event, FORK_TOKEN);
    return { cwd, text: readFileSync(r.outputs['review-file']!, 'utf8') };
  }
  const runEvent = (cwd: string, headSha: string) => ({
    name: 'workflow_run',
    path: eventFile(
      cwd,
      { action: 'completed', workflow_run: { head_sha: headSha, event: 'pull_request', pull_requests: [] } },
      'run.json',
    ),
  });

  it('posts the comment and the check from the file with the base token, running no spec', async () => {
    const { text } = await forkReview('published');
    // The publishing workspace has no spec at all: nothing of the fork is run.
    const ws = workspace({ 'review.json': text });
    const result = await run(
      ws,
      'published',
      { mode: 'review-publish', 'review-file': 'review.json' },
      runEvent(ws, FORK_HEAD),
    );
    expect(result.failed).toBeUndefined();
    const posted = await comments(2);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body).toBe(result.outputs.review);
    expect((await checkRuns(FORK_HEAD)).map((c) => c.name)).toContain('docdb: published');
  });

  it('refuses a file about another commit than the pull request head, or than the workflow run', async () => {
    const { text } = await forkReview('forged');
    const forged = text.replace(FORK_HEAD, 'e'.repeat(40));
    const ws = workspace({ 'review.json': forged, 'real.json': text });
    await expect(
      run(ws, 'forged', { mode: 'review-publish', 'review-file': 'review.json' }, runEvent(ws, 'e'.repeat(40))),
    ).rejects.toThrow(
      /input "review-file": the review is about commit e{40}, but pull request #2's head is now f0f0f0/,
    );
    await expect(
      run(ws, 'forged', { mode: 'review-publish', 'review-file': 'real.json' }, runEvent(ws, 'e'.repeat(40))),
    ).rejects.toThrow(/the review is about commit f0f0f0\w+, but the workflow run that made it ran on e{40}: refused/);
    // A file about another section of the repository is refused too (the marker names the section).
    await expect(
      run(ws, 'elsewhere', { mode: 'review-publish', 'review-file': 'real.json' }, runEvent(ws, FORK_HEAD)),
    ).rejects.toThrow(/the review is about the section refs\/docdb\/forged, this step's is refs\/docdb\/elsewhere/);
    expect(await comments(2)).toHaveLength(1); // only the one from the test before
  });

  it('refuses an oversized file before reading it', async () => {
    const ws = workspace({ 'review.json': `{"x":"${'a'.repeat(8 * 1024 * 1024)}"}` });
    em.clearLog();
    await expect(
      run(ws, 'big', { mode: 'review-publish', 'review-file': 'review.json' }, runEvent(ws, FORK_HEAD)),
    ).rejects.toThrow(
      /input "review-file": "review.json" is \d+ bytes, more than a review file holds \(8388608\); it is not read/,
    );
    expect(em.requests).toEqual([]);
  });
});
