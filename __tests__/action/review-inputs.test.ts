/**
 * The review modes' inputs and event (issue 39): each bad value is refused before any request with a message
 * naming the input (or GITHUB_EVENT_PATH) and what is allowed; the event payload is untrusted JSON, read only
 * under its size cap, and only well-formed fields are taken.
 */
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { MAX_EVENT_BYTES, readReviewEvent, reviewFields } from '../../src/action/review-event.js';
import { reviewFileTarget } from '../../src/action/review-file.js';
import { pullNumberOf } from '../../src/action/review-pull.js';
import { CLI_INPUT_NAMES } from '../../src/cli/input-flags.js';
import { previewRefOf } from '../../src/core/preview-ref.js';

const read = (values: Record<string, string>, names?: Parameters<typeof readInputs>[2]) =>
  readInputs((n) => values[n] ?? '', { GITHUB_REPOSITORY: 'octo/data' }, names);

describe('review inputs', () => {
  it('reads pull-request, viewer-url and review-file for mode review', () => {
    const inputs = read({
      mode: 'review',
      'pull-request': '42',
      'viewer-url': 'https://octo.github.io/data/',
      'review-file': 'out/review.json',
    });
    expect(inputs.review).toEqual({
      pullRequest: 42,
      viewerUrl: 'https://octo.github.io/data/',
      reviewFile: 'out/review.json',
    });
    expect(read({ mode: 'review' }).review).toEqual({});
    expect(read({ mode: 'project' }).review).toBeUndefined();
  });

  it.each([
    [
      { mode: 'review', 'pull-request': '0' },
      /input "pull-request": "0" is not a pull request number \(a whole number from 1\)/,
    ],
    [{ mode: 'review', 'pull-request': '4x' }, /input "pull-request": "4x" is not a pull request number/],
    [{ mode: 'review', 'pull-request': '99999999999' }, /input "pull-request": "99999999999" is not/],
    [
      { mode: 'review', 'viewer-url': 'javascript:alert(1)' },
      /input "viewer-url": "javascript:alert\(1\)" is not an http\(s\) address of the docdb viewer/,
    ],
    [
      { mode: 'review', 'viewer-url': 'https://user:pw@x.example/' },
      /input "viewer-url": .* is not an http\(s\) address/,
    ],
    [
      { mode: 'review', 'review-file': '/etc/passwd' },
      /input "review-file": "\/etc\/passwd" is not a file inside the workspace/,
    ],
    [
      { mode: 'review', 'review-file': '../up.json' },
      /input "review-file": "..\/up.json" is not a file inside the workspace/,
    ],
    [
      { mode: 'review', 'review-file': 'a/../../up.json' },
      /input "review-file": .* is not a file inside the workspace/,
    ],
    [{ mode: 'review-publish' }, /input "review-file": is required with mode: review-publish/],
    [{ mode: 'review', shard: '1/2' }, /input "shard": does not apply to mode: review/],
    [
      { mode: 'project', 'pull-request': '3' },
      /input "pull-request": only applies to mode: review, review-publish, review-cleanup \(mode is project\)/,
    ],
    [
      { mode: 'review-cleanup', 'review-file': 'r.json' },
      /input "review-file": only applies to mode: review, review-publish \(mode is review-cleanup\)/,
    ],
  ])('refuses %j', (values, message) => {
    expect(() => read(values as Record<string, string>)).toThrow(message);
    try {
      read(values as Record<string, string>);
    } catch (e) {
      expect(e).toMatchObject({ code: 'InvalidConfig' });
    }
  });

  it('names the CLI flag in the CLI', () => {
    expect(() => read({ mode: 'review', 'pull-request': 'x' }, CLI_INPUT_NAMES)).toThrow(/^--pull-request: "x" is not/);
  });

  it('mode review without a pull request number in the input or the event names the input', () => {
    const inputs = read({ mode: 'review' });
    expect(() => pullNumberOf(inputs, { name: 'push' })).toThrow(
      /input "pull-request": mode: review needs the pull request's number: run it on a pull_request event .*or set the "pull-request" input \(the push event has none\)/,
    );
    expect(pullNumberOf(inputs, { name: 'pull_request', pullRequest: { number: 9 } })).toBe(9);
    expect(
      pullNumberOf(read({ mode: 'review', 'pull-request': '4' }), { name: 'pull_request', pullRequest: { number: 9 } }),
    ).toBe(4);
  });

  it('a review file whose path leads out of the workspace through a symbolic link is refused', async () => {
    const { symlinkSync } = await import('node:fs');
    const ws = mkdtempSync(join(tmpdir(), 'docdb-review-ws-'));
    const out = mkdtempSync(join(tmpdir(), 'docdb-review-out-'));
    symlinkSync(out, join(ws, 'site'));
    await expect(reviewFileTarget('site/review.json', ws)).rejects.toThrow(
      /input "review-file": "site\/review.json" is not a file inside the workspace .*: it leads to /,
    );
    await expect(reviewFileTarget('review.json', ws)).resolves.toMatch(/review\.json$/);
  });

  it("the preview ref lives in the section's reserved .previews space", () => {
    expect(previewRefOf('refs/docdb/documents', 42)).toBe('refs/docdb/documents.previews/pr-42');
    expect(() => previewRefOf('refs/docdb/documents', 0)).toThrow(/pull request 0 is not a pull request number/);
    expect(() => read({ section: 'docs.previews' })).toThrow(/input "section": .* is in a reserved space/);
  });
});

describe('the event payload (untrusted)', () => {
  const file = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'docdb-event-')), 'event.json');
    writeFileSync(path, text);
    return path;
  };

  it('takes only well-formed fields', () => {
    const sha = 'a'.repeat(40);
    expect(
      reviewFields({
        pull_request: {
          number: 5,
          head: { sha, repo: { full_name: 'fork/data' } },
          base: { repo: { full_name: 'octo/data' } },
        },
      }),
    ).toEqual({ pullRequest: { number: 5, headSha: sha.toLowerCase(), headRepo: 'fork/data', baseRepo: 'octo/data' } });
    expect(
      reviewFields({
        pull_request: { number: '5', head: { sha: 'x'.repeat(40) } },
        workflow_run: { head_sha: 1, pull_requests: [{ number: 3 }, { number: -1 }, 'x'] },
      }),
    ).toEqual({ workflowRun: { pullRequests: [3] } });
    expect(
      reviewFields({ pull_request: { number: 5, head: { sha: 'a'.repeat(40), repo: { full_name: 'bad name/x"' } } } }),
    ).toEqual({
      pullRequest: { number: 5, headSha: 'a'.repeat(40) },
    });
    expect(reviewFields([1, 2])).toEqual({});
  });

  it('refuses a payload over the cap before parsing it, and one that is not JSON', async () => {
    const big = file('{}');
    truncateSync(big, MAX_EVENT_BYTES + 1);
    await expect(readReviewEvent({ name: 'pull_request', path: big })).rejects.toMatchObject({
      code: 'InvalidConfig',
      message: expect.stringMatching(
        /the event payload is 26214401 bytes, more than the 26214400 GitHub sends; it is not read/,
      ),
    });
    await expect(readReviewEvent({ name: 'pull_request', path: file('{"pull_request":') })).rejects.toThrow(
      /the event payload is not JSON/,
    );
    await expect(readReviewEvent({ name: 'push' })).resolves.toEqual({ name: 'push' });
    await expect(
      readReviewEvent({ name: 'pull_request', path: file('{"pull_request":{"number":8}}') }),
    ).resolves.toEqual({
      name: 'pull_request',
      pullRequest: { number: 8 },
    });
  });
});

describe('the store facts a review gives (given-facts.ts)', () => {
  it('refuses a repository id that is not a node id, and a date that is not one', async () => {
    const { checkCommitDate, checkRepositoryId } = await import('../../src/stores/remote-api/given-facts.js');
    expect(checkRepositoryId('R_kgDOAbc-12=')).toBe('R_kgDOAbc-12=');
    expect(() => checkRepositoryId('x y')).toThrow(/repositoryId must be a GraphQL node id, got "x y"/);
    expect(() => checkRepositoryId('')).toThrow(/repositoryId must be a GraphQL node id/);
    expect(checkCommitDate(new Date(0))?.getTime()).toBe(0);
    expect(() => checkCommitDate(new Date('nope'))).toThrow(/commitDate must be a valid Date/);
    expect(() => checkCommitDate('2000-01-01')).toThrow(/commitDate must be a valid Date/);
  });
});
