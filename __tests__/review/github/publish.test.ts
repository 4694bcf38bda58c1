/**
 * publishReview against the emulator (issue 39): the sticky comment (created, edited in place, left
 * alone when unchanged, never someone else's), the check run with annotations in batches of 50, the
 * commit status for a personal token, missing permissions reported (never thrown), the page cap, and
 * errors that never carry the token.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse, UpstreamUnavailable } from '../../../src/core/errors.js';
import { COMMENT_PAGE_CAP, publishReview } from '../../../src/review/github/index.js';
import { reviewMarker } from '../../../src/review/index.js';
import {
  annotations,
  BOT,
  client,
  commentWrites,
  logged,
  PAT,
  REPO,
  render,
  review,
  SECTION,
  target,
  type World,
  world,
} from './fixtures.js';

let w: World;
afterEach(() => w?.em.stop());

/** Everything an error shows: its text, stack, JSON form, data and cause. */
function shown(err: unknown): string {
  const e = err as Error & { data?: unknown; cause?: unknown };
  return [String(e), e.stack, JSON.stringify(e), JSON.stringify(e.data), String(e.cause)].join('\n');
}

const comments = () => w.em.state.repo(REPO).comments.filter((c) => c.issueNumber === w.pr);

describe('the sticky comment', () => {
  it('is created on the first run and edited in place on the next', async () => {
    w = await world();
    const first = await publishReview(client(w, BOT), target(w), review(w), render('three documents'));
    expect(first.comment.action).toBe('created');
    expect(comments()).toHaveLength(1);
    expect(comments()[0]?.user).toBe('github-actions[bot]');
    const from = w.em.requests.length;
    const second = await publishReview(client(w, BOT), target(w), review(w), render('four documents'));
    expect(second.comment).toMatchObject({ action: 'updated', id: first.comment.id });
    expect(comments()).toHaveLength(1);
    expect(comments()[0]?.body).toContain('four documents');
    expect(logged(w, from, 'PATCH', /\/issues\/comments\/\d+$/)).toHaveLength(1);
    expect(first.comment.url).toMatch(/\/pull\/\d+#issuecomment-\d+$/);
  });

  it('is not written when its text would not change (0 writes)', async () => {
    w = await world();
    await publishReview(client(w, BOT), target(w), review(w), render('same'));
    const from = w.em.requests.length;
    const again = await publishReview(client(w, BOT), target(w), review(w), render('same'));
    expect(again.comment.action).toBe('unchanged');
    expect(commentWrites(w, from)).toBe(0);
  });

  it('a comment with the marker by another account is never edited: a new one is written', async () => {
    w = await world();
    const quoted = `${reviewMarker(SECTION)}\nquoted by a person`;
    w.em.state.addComment(REPO, { issueNumber: w.pr, body: quoted, user: 'mallory' });
    const out = await publishReview(client(w, BOT), target(w), review(w), render('ours'));
    expect(out.comment.action).toBe('created');
    expect(comments().map((c) => [c.user, c.body])).toEqual([
      ['mallory', quoted],
      ['github-actions[bot]', render('ours').comment],
    ]);
    // A personal token does not take the bot's comment for its own either.
    const mine = await publishReview(client(w, PAT), target(w, 'personal'), review(w), render('by octo'));
    expect(mine.comment.action).toBe('created');
    expect(comments()[1]?.body).toBe(render('ours').comment);
    expect(comments()[2]?.user).toBe('octo');
  });

  it('a personal token finds its own comment through GET /user and edits it', async () => {
    w = await world();
    await publishReview(client(w, PAT), target(w, 'personal'), review(w), render('one'));
    const from = w.em.requests.length;
    const out = await publishReview(client(w, PAT), target(w, 'personal'), review(w), render('two'));
    expect(out.comment.action).toBe('updated');
    expect(logged(w, from, 'GET', /^\/user$/)).toHaveLength(1);
    expect(comments()).toHaveLength(1);
  });

  it('deleted between the list and the edit (404): a new comment is written, not a missing permission', async () => {
    w = await world();
    await publishReview(client(w, BOT), target(w), review(w), render('one'));
    w.em.inject({
      kind: 'status',
      status: 404,
      method: 'PATCH',
      path: /\/issues\/comments\/\d+$/,
      body: { message: 'Not Found' },
    });
    const out = await publishReview(client(w, BOT), target(w), review(w), render('two'));
    expect(out.comment.action).toBe('created');
    expect(out.missing).toEqual([]);
    expect(comments().map((c) => c.body)).toEqual([render('one').comment, render('two').comment]);
  });

  it('nothing changes and no earlier comment: skipped, nothing written', async () => {
    w = await world();
    const from = w.em.requests.length;
    const out = await publishReview(client(w, BOT), target(w), review(w, false), render('nothing changes'));
    expect(out.comment).toEqual({ action: 'skipped' });
    expect(commentWrites(w, from)).toBe(0);
    // With an earlier comment, it is edited to say so.
    await publishReview(client(w, BOT), target(w), review(w, true), render('changes'));
    const later = await publishReview(client(w, BOT), target(w), review(w, false), render('nothing changes'));
    expect(later.comment.action).toBe('updated');
  });

  it(`is found on page 22 of comments; past ${COMMENT_PAGE_CAP} pages it is not looked for`, async () => {
    w = await world();
    for (let i = 0; i < 2100; i++) w.em.state.addComment(REPO, { issueNumber: w.pr, body: `chatter ${i}` });
    const sticky = w.em.state.addComment(REPO, {
      issueNumber: w.pr,
      body: render('old').comment,
      user: 'github-actions[bot]',
    });
    for (let i = 0; i < 30; i++) w.em.state.addComment(REPO, { issueNumber: w.pr, body: `later ${i}` });
    const from = w.em.requests.length;
    const out = await publishReview(client(w, BOT), target(w), review(w), render('new'));
    expect(out.comment).toMatchObject({ action: 'updated', id: sticky.id });
    expect(logged(w, from, 'GET', /\/issues\/\d+\/comments$/)).toHaveLength(22);

    for (let i = 0; i < 900; i++) w.em.state.addComment(REPO, { issueNumber: w.pr, body: `more ${i}` });
    w.em.state.repo(REPO).comments.splice(w.em.state.repo(REPO).comments.indexOf(sticky), 1);
    w.em.state.addComment(REPO, { issueNumber: w.pr, body: render('beyond').comment, user: 'github-actions[bot]' });
    const from2 = w.em.requests.length;
    const capped = await publishReview(client(w, BOT), target(w), review(w), render('capped'));
    expect(capped.comment.action).toBe('created');
    expect(logged(w, from2, 'GET', /\/issues\/\d+\/comments$/)).toHaveLength(COMMENT_PAGE_CAP);
  });
});

describe('the check run', () => {
  it('sends more than 50 annotations in batches of 50: the create, then PATCHes', async () => {
    w = await world();
    const from = w.em.requests.length;
    const out = await publishReview(
      client(w, BOT),
      target(w),
      review(w),
      render('x', { annotations: annotations(120) }),
    );
    expect(out.check.action).toBe('created');
    expect(logged(w, from, 'POST', /\/check-runs$/)).toHaveLength(1);
    expect(logged(w, from, 'PATCH', /\/check-runs\/\d+$/)).toHaveLength(2);
    const [run] = w.em.state.repo(REPO).checkRuns;
    expect(run?.annotations.map((a) => a.message)).toEqual(annotations(120).map((a) => a.message));
    expect(run).toMatchObject({
      name: 'docdb: documents',
      headSha: w.headSha,
      conclusion: 'neutral',
      status: 'completed',
    });
  });

  it('is updated on a re-run; one that already has annotations is replaced by a new run instead', async () => {
    w = await world();
    const first = await publishReview(client(w, BOT), target(w), review(w), render('a'));
    const second = await publishReview(
      client(w, BOT),
      target(w),
      review(w),
      render('b', { annotations: annotations(3) }),
    );
    expect(second.check).toMatchObject({ action: 'updated', id: first.check.id });
    const third = await publishReview(
      client(w, BOT),
      target(w),
      review(w),
      render('c', { annotations: annotations(3) }),
    );
    expect(third.check.action).toBe('created');
    expect(w.em.state.repo(REPO).checkRuns.map((r) => r.annotations.length)).toEqual([3, 3]);
  });

  it('a personal access token writes a commit status instead (description cut to 140)', async () => {
    w = await world();
    const from = w.em.requests.length;
    const out = await publishReview(
      client(w, PAT),
      target(w, 'personal'),
      review(w),
      render('x', { title: 't'.repeat(300), annotations: annotations(2) }),
    );
    expect(out.check.action).toBe('status');
    expect(logged(w, from, 'POST', /\/check-runs$/)).toHaveLength(0);
    const [status] = w.em.state.repo(REPO).statuses;
    expect(status).toMatchObject({ sha: w.headSha, state: 'success', context: 'docdb: documents' });
    expect([...(status?.description ?? '')]).toHaveLength(140);
    expect(out.missing).toEqual([]);
  });
});

describe('missing permissions are reported, never thrown', () => {
  it('without pull-requests: write the comment is denied; the check run is still written', async () => {
    w = await world();
    w.em.state.addToken('ghs_checksOnly', { login: 'octo', permissions: { checks: 'write', contents: 'read' } });
    const out = await publishReview(client(w, 'ghs_checksOnly'), target(w), review(w), render('x'));
    expect(out.comment).toEqual({ action: 'denied' });
    expect(out.check.action).toBe('created');
    expect(out.missing).toEqual(['pull-requests: write']);
  });

  it('without checks: write the check is denied; the comment is still written', async () => {
    w = await world();
    w.em.state.addToken('ghs_prsOnly', { login: 'octo', permissions: { 'pull-requests': 'write' } });
    const out = await publishReview(client(w, 'ghs_prsOnly'), target(w), review(w), render('x'));
    expect(out.comment.action).toBe('created');
    expect(out.check).toEqual({ action: 'denied' });
    expect(out.missing).toEqual(['checks: write']);
  });

  it("a fork's read-only token: both denied, nothing written", async () => {
    w = await world();
    w.em.state.addToken('ghs_readOnly', { login: 'someone', repos: { [REPO]: 'read' } });
    const out = await publishReview(client(w, 'ghs_readOnly'), target(w), review(w), render('x'));
    expect(out).toMatchObject({
      comment: { action: 'denied' },
      check: { action: 'denied' },
      missing: ['pull-requests: write', 'checks: write'],
    });
    expect(comments()).toHaveLength(0);
  });

  it('a personal token without statuses: write', async () => {
    w = await world();
    w.em.state.addToken('ghp_noStatuses', { login: 'octo', permissions: { 'pull-requests': 'write' } });
    const out = await publishReview(client(w, 'ghp_noStatuses'), target(w, 'personal'), review(w), render('x'));
    expect(out.check).toEqual({ action: 'denied' });
    expect(out.missing).toEqual(['statuses: write']);
  });
});

describe('failures', () => {
  it('a 500 throws a typed error that never carries the token', async () => {
    w = await world();
    w.em.inject({ kind: 'status', status: 500, path: /\/comments$/, times: 100, body: { message: 'Server Error' } });
    const err = await publishReview(client(w, BOT), target(w), review(w), render('x')).catch((e: unknown) => e);
    expect(shown(err)).not.toContain(BOT.slice(4, 20));
    expect(err).toBeInstanceOf(UpstreamUnavailable);
    expect(shown(err)).toContain('find the review comment');
  });

  it('whatever a client error carries (a client that does not redact), the thrown error has no token', async () => {
    w = await world();
    // Octokit redacts the authorization header on its errors; a plain SourceClient might not.
    const leaky = {
      request: async () => {
        throw Object.assign(new Error(`request failed (authorization: token ${BOT})`), {
          status: 500,
          request: { method: 'GET', url: '/x', headers: { authorization: `token ${BOT}` } },
          response: { status: 500, headers: {}, data: { message: 'Server Error' } },
        });
      },
    };
    const err = await publishReview(leaky, target(w), review(w), render('x')).catch((e: unknown) => e);
    expect(shown(err)).not.toContain(BOT.slice(4, 20));
    expect(err).toBeInstanceOf(UpstreamUnavailable);
  });

  it('a 422 (GitHub refusing the body) throws, it is not a missing permission', async () => {
    w = await world();
    const tooLong = { ...render('x'), comment: `${render('x').comment}${'y'.repeat(65_536)}` };
    const err = await publishReview(client(w, BOT), target(w), review(w), tooLong).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidResponse);
    expect(String(err)).toContain('Validation Failed');
    expect(String(err)).not.toContain(BOT);
  });

  it('a bad target is refused naming the field, before any request', async () => {
    w = await world();
    const from = w.em.requests.length;
    const bad = { ...target(w), headSha: 'main' };
    await expect(publishReview(client(w, BOT), bad, review(w), render('x'))).rejects.toThrow(InvalidConfig);
    await expect(
      publishReview(client(w, BOT), { ...target(w), pullRequest: 0 }, review(w), render('x')),
    ).rejects.toThrow(/pullRequest/);
    expect(w.em.requests.length).toBe(from);
  });
});
