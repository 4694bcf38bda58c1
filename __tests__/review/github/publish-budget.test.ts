/**
 * The publisher's request budget (issue 39): on a pull request with ≤ 100 comments and an earlier sticky
 * comment, the whole publish (find and edit the comment, find and update the check run) costs ≤ 5
 * requests; a re-run with the same text writes no comment. The review is built and rendered by the real
 * renderers (src/review), so the marker the publisher looks for is the one the comment carries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishReview } from '../../../src/review/github/index.js';
import { buildReview, type ReviewInput, renderCheckRun, renderComment } from '../../../src/review/index.js';
import { BOT, client, commentWrites, REPO, SECTION, target, type World, world } from './fixtures.js';

let w: World;
beforeAll(async () => {
  w = await world();
});
afterAll(() => w.em.stop());

function rendered(stars: number) {
  const input: ReviewInput = {
    section: SECTION,
    repository: REPO,
    pullRequest: w.pr,
    headSha: w.headSha,
    base: null,
    preview: null,
    specFile: 'docdb.yml',
    projections: [{ name: 'repos', line: 3 }],
    expectations: { declared: false, violations: [] },
    documents: [
      {
        key: 'github/repo/octo/a',
        namespace: 'github',
        type: 'repo',
        id: 'octo/a',
        change: 'modified',
        projection: 'repos',
        before: { stars: 1 },
        after: { stars },
      },
    ],
    notes: [],
  };
  const review = buildReview(input);
  return { review, render: { comment: renderComment(review), check: renderCheckRun(review) } };
}

describe('publish budget', () => {
  it('≤ 5 requests with an existing comment on a PR with 100 comments; a re-run writes no comment', async () => {
    const first = rendered(2);
    await publishReview(client(w, BOT), target(w), first.review, first.render);
    for (let i = 0; i < 99; i++)
      w.em.state.addComment(REPO, { issueNumber: w.pr, body: `chatter ${i}`, user: 'reviewer' });
    expect(w.em.state.repo(REPO).comments).toHaveLength(100);

    const second = rendered(3);
    const from = w.em.requests.length;
    const out = await publishReview(client(w, BOT), target(w), second.review, second.render);
    const sent = w.em.requests.length - from;
    expect(out).toMatchObject({ comment: { action: 'updated' }, check: { action: 'updated' }, missing: [] });
    expect(sent).toBe(out.requests);
    expect(sent).toBeLessThanOrEqual(5);
    console.log(`publish budget: ${sent} requests (list comments, edit comment, find check run, update check run)`);

    const again = w.em.requests.length;
    const rerun = await publishReview(client(w, BOT), target(w), second.review, rendered(3).render);
    expect(rerun.comment.action).toBe('unchanged');
    expect(commentWrites(w, again)).toBe(0);
    expect(w.em.state.repo(REPO).comments.filter((c) => c.user === 'github-actions[bot]')).toHaveLength(1);
  });
});
