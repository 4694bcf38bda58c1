/**
 * The publisher's request budget (issue 39): on a pull request with ≤ 100 comments and an earlier sticky
 * comment, the whole publish (find and edit the comment, find and update the check run) costs ≤ 5
 * requests; a re-run with the same text writes no comment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishReview } from '../../../src/review/github/index.js';
import { BOT, client, commentWrites, REPO, render, review, target, type World, world } from './fixtures.js';

let w: World;
beforeAll(async () => {
  w = await world();
});
afterAll(() => w.em.stop());

describe('publish budget', () => {
  it('≤ 5 requests with an existing comment on a PR with 100 comments; a re-run writes no comment', async () => {
    await publishReview(client(w, BOT), target(w), review(w), render('first run'));
    for (let i = 0; i < 99; i++)
      w.em.state.addComment(REPO, { issueNumber: w.pr, body: `chatter ${i}`, user: 'reviewer' });
    expect(w.em.state.repo(REPO).comments).toHaveLength(100);

    const from = w.em.requests.length;
    const out = await publishReview(client(w, BOT), target(w), review(w), render('second run'));
    const sent = w.em.requests.length - from;
    expect(out).toMatchObject({ comment: { action: 'updated' }, check: { action: 'updated' }, missing: [] });
    expect(sent).toBe(out.requests);
    expect(sent).toBeLessThanOrEqual(5);
    console.log(`publish budget: ${sent} requests (list comments, edit comment, find check run, update check run)`);

    const again = w.em.requests.length;
    const rerun = await publishReview(client(w, BOT), target(w), review(w), render('second run'));
    expect(rerun.comment.action).toBe('unchanged');
    expect(commentWrites(w, again)).toBe(0);
  });
});
