/**
 * The document view's version rows (issue 40 items 10 and 11) in Chromium: each row names the commit's
 * author and the fields that version changed against the one before it (checked against the viewer's own
 * field diff of the library's reads) — with a token for ONE request more (`versionsOf`, a GraphQL query),
 * anonymously only on request, for the cost it states; and a document with one version has no compare form.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../../src/document/envelope.js';
import { deriveKey } from '../../src/document/identity.js';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { openChart } from './chart-fixtures.js';
import { REF } from './document-fixtures.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();
beforeEach(() => {
  world.em.state.anonymousBudget.used = 0;
});

const ID = { namespace: 'github', doc_type: 'repo', id: 'octo/hello' };
const docQuery = (repo: string) => `repo=${OWNER}/${repo}&view=document&ns=github&type=repo&id=octo/hello`;

/** Commits of octo/hello by named authors (and one of another document between them). */
function history(versions: { data: unknown; author: string }[]) {
  const repo = freshRepo(world.em);
  const shas: string[] = [];
  for (const [i, v] of versions.entries()) {
    const files = {
      [deriveKey(ID)]: encodeEnvelope({ namespace: 'github', type: 'repo', id: 'octo/hello', data: v.data }),
    };
    const author = { name: v.author, email: `${v.author.toLowerCase()}@example.com` };
    shas.push(world.em.state.commitFiles(`${OWNER}/${repo}`, { branch: REF, files, author, orphan: i === 0 }));
    const noise = { namespace: 'github', type: 'repo', id: 'octo/other', data: { i } };
    world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: REF,
      files: { [deriveKey({ ...ID, id: 'octo/other' })]: encodeEnvelope(noise) },
    });
  }
  return { repo, shas };
}

const THREE = [
  { data: { stars: 1, owner: { login: 'ann' }, tags: ['a'] }, author: 'Ann' },
  { data: { stars: 2, owner: { login: 'ann' }, tags: ['a'] }, author: 'Bob' },
  {
    data: { stars: 2, owner: { login: 'cy' }, tags: ['a', 'b'], '<b>x</b>': '<img src=x onerror=alert(1)>' },
    author: '<i>Cy</i>',
  },
];

/** Each version row's author and what it changed, newest first. */
const rows = (page: Page) =>
  page.locator('.versions-list li').evaluateAll((els) =>
    els.map((e) => ({
      author: e.querySelector('.author')?.textContent,
      changed: e.querySelector('.version-changes')?.textContent ?? null,
    })),
  );

const EXPECTED = [
  { author: 'by <i>Cy</i>', changed: 'changed data["<b>x</b>"], data.owner.login, data.tags[1]' },
  { author: 'by Bob', changed: 'changed data.stars' },
  { author: 'by Ann', changed: 'created the document' },
];

describe('document versions', () => {
  it('with a token: each row names its author and the fields it changed, for one request more (4 in all)', async () => {
    const { repo } = history(THREE);
    const page = await openChart(world, docQuery(repo), { token: true });
    await page.waitForSelector('.version-changes');
    await page.waitForFunction(() => document.querySelectorAll('.version-changes').length === 3);
    expect(await rows(page)).toEqual(EXPECTED);
    // The tip, the document, one history page, one GraphQL query for the three versions.
    expect(world.requests(page)).toBe(4);
    expect(await page.locator('.versions-list i, .versions-list b, .versions-list img').count()).toBe(0);
    expect(await page.locator('button.load-changes').isVisible()).toBe(false);
  });

  it('anonymously: opening costs no more than before (3); the changes are read on request, a request a version', async () => {
    const { repo } = history(THREE);
    const page = await world.open(docQuery(repo));
    expect(world.requests(page)).toBe(3);
    expect((await rows(page)).map((r) => r.changed)).toEqual([null, null, null]);
    const button = page.locator('button.load-changes');
    expect(await button.innerText()).toBe(
      'Show which fields each version changed (3 requests: the document at 3 versions)',
    );
    await button.click();
    await page.waitForFunction(() => document.querySelectorAll('.version-changes').length === 3);
    expect(await rows(page)).toEqual(EXPECTED);
    expect(world.requests(page)).toBe(6);
    expect(await button.isVisible()).toBe(false);
  });

  it('anonymously, with too little of the hour left: says what it would cost and reads nothing', async () => {
    const { repo } = history(THREE);
    // 56 used: after the page's 3 requests, 1 is left of the hour, and the changes would cost 3.
    world.em.state.anonymousBudget.used = 56;
    const page = await world.open(docQuery(repo));
    const before = world.requests(page);
    await page.locator('button.load-changes').click();
    await page.locator('.changes-warning [role="alert"]').waitFor();
    expect(world.requests(page)).toBe(before);
    expect((await rows(page)).map((r) => r.changed)).toEqual([null, null, null]);
  });

  it('a document with one version shows no compare form; with two it does', async () => {
    const one = history([THREE[0]!]);
    const page = await world.open(docQuery(one.repo));
    expect(await page.locator('.versions-list li').count()).toBe(1);
    expect(await page.locator('form.compare').isVisible()).toBe(false);
    const two = history(THREE.slice(0, 2));
    const page2 = await world.open(docQuery(two.repo));
    expect(await page2.locator('form.compare').isVisible()).toBe(true);
  });
});
