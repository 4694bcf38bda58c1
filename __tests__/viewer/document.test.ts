/**
 * The document view in Chromium (issue 29 item 4): the envelope as a keyboard-usable tree, every version
 * (history pages on request), the field diff between two versions checked against the library's
 * envelopes, the request budget of open + pick + diff, bad versions said in a sentence, and 375 px.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { formatPath } from '../../src/viewer/diff.js';
import { documentChanges } from '../../src/viewer/document/field-diff.js';
import { OWNER, store } from '../remote-api/helpers.js';
import { fitsWidth, identityOf, seeder } from './document-fixtures.js';
import { settled, viewerWorld } from './viewer-page.js';

const world = viewerWorld();
// Every test starts a fresh anonymous hour: the emulator's 60 requests are shared by the whole file.
beforeEach(() => {
  world.em.state.anonymousBudget.used = 0;
});

const hello = (data: unknown) => ({ namespace: 'github', type: 'repo', id: 'octo/hello', data });
const docQuery = (repo: string) => `repo=${OWNER}/${repo}&view=document&ns=github&type=repo&id=octo/hello`;

/** Three versions of octo/hello with commits of another document between them. */
function threeVersions() {
  const s = seeder(world.em);
  const noise = (n: number) => ({ namespace: 'github', type: 'repo', id: 'octo/other', data: { n } });
  const v1 = s.commit([hello({ stars: 1, owner: { login: 'ann' }, tags: ['a'], gone: true })]);
  s.commit([noise(1)]);
  const v2 = s.commit([hello({ stars: 2, owner: { login: 'ann' }, tags: ['a'], gone: true })]);
  s.commit([noise(2)]);
  const v3 = s.commit([
    hello({ stars: 3, owner: { login: 'bob' }, tags: ['a', 'b'], '<b>x</b>': '<img src=x onerror=alert(1)>' }),
  ]);
  return { repo: s.repo, v1, v2, v3 };
}

describe('document view', () => {
  it('shows the envelope as text, every version, and a diff that matches the library; open + pick + diff ≤ 4 requests', async () => {
    const { repo, v1, v2, v3 } = threeVersions();
    const page = await world.open(docQuery(repo));
    expect(await page.locator('.doc-title').innerText()).toBe('github/repo/octo/hello');
    const tree = await page.locator('.json-tree').innerText();
    expect(tree).toContain('"bob"');
    // Untrusted text stays text: the markup in a key and a value is shown, never parsed.
    expect(tree).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('.json-tree img, .json-tree b').count()).toBe(0);
    const listed = await page
      .locator('.versions-list li')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.version));
    expect(listed).toEqual([v3, v2, v1]);
    // The emulator has no commit pages: the SHA is text, not a link.
    expect(await page.locator('.versions-list .sha').evaluateAll((els) => els.map((e) => e.tagName))).toEqual([
      'CODE',
      'CODE',
      'CODE',
    ]);
    const opened = world.requests(page);

    await page.selectOption('#doc-from', v1);
    await page.click('form.compare button[type="submit"]');
    await page.waitForSelector('.doc-diff');
    await settled(page);
    const url = new URL(page.url());
    expect([url.searchParams.get('from'), url.searchParams.get('to'), url.searchParams.get('at')]).toEqual([
      v1,
      v3,
      v3,
    ]);
    const total = world.requests(page);
    expect(total, `open ${opened}, pick + diff ${total - opened}`).toBeLessThanOrEqual(4);

    const shown = await page
      .locator('.doc-diff .change')
      .evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.kind} ${(e as HTMLElement).dataset.path}`));
    const docs = new DocumentStore(store(world.em, repo));
    const identity = identityOf(hello(null));
    const [a, b] = [(await docs.get(identity, { version: v1 }))!, (await docs.get(identity, { version: v3 }))!];
    const expected = documentChanges(a, b).map((c) => `${c.kind} ${formatPath(c.path)}`);
    expect(shown).toEqual(expected);
    expect(shown).toEqual(
      expect.arrayContaining([
        'changed data.stars',
        'changed data.owner.login',
        'added data.tags[1]',
        'removed data.gone',
      ]),
    );

    // Comparing v1 with v2 reads only the document at v2: v1 was read for the first diff, and the versions
    // below v2 are the end of the page already read.
    await page.selectOption('#doc-to', v2);
    await page.click('form.compare button[type="submit"]');
    await page.waitForFunction((v) => new URL(location.href).searchParams.get('at') === v, v2);
    await settled(page);
    expect(await page.locator('.doc-envelope h2').innerText()).toBe(`Document at version ${v2.slice(0, 7)}`);
    const below = await page
      .locator('.versions-list li')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.version));
    expect(below).toEqual([v2, v1]);
    expect(await page.locator('.doc-diff .change').count()).toBe(1);
    expect(world.requests(page)).toBe(total + 1);
  });

  it('lists every version of a long history, 100 at a time, one request per page', async () => {
    const s = seeder(world.em);
    const versions: string[] = [];
    for (let i = 0; i < 130; i++) versions.push(s.commit([hello({ n: i })]));
    const page = await world.open(docQuery(s.repo));
    expect(await page.locator('.versions-list li').count()).toBe(100);
    expect(await page.locator('.versions-count').innerText()).toContain('100 versions loaded so far');
    const before = world.requests(page);
    await page.click('button.load-older');
    await page.waitForFunction(() => document.querySelectorAll('.versions-list li').length === 130);
    expect(world.requests(page) - before).toBe(1);
    expect(await page.locator('button.load-older').isHidden()).toBe(true);
    expect(await page.locator('.versions-count').innerText()).toContain('130 versions.');
    const listed = await page
      .locator('.versions-list li')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.version));
    expect(listed).toEqual([...versions].reverse());
    // The oldest, from the second page, can be compared.
    expect(await page.locator(`#doc-from option[value="${versions[0]}"]`).count()).toBe(1);
  });

  it('opens and closes the tree from the keyboard, building a closed level when first opened', async () => {
    const s = seeder(world.em);
    s.commit([hello({ deep: { deeper: { deepest: { leaf: 'found-me' } } } })]);
    const page = await world.open(docQuery(s.repo));
    expect(await page.locator('.json-tree').innerText()).not.toContain('found-me');
    expect(await page.locator('.json-tree summary', { hasText: 'deepest' }).count()).toBe(0);
    await page.locator('.json-tree summary', { hasText: 'deeper' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.json-tree summary', { hasText: 'deepest' }).focus();
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.querySelector('.json-tree')?.textContent?.includes('found-me'));
    await page.keyboard.press('Enter');
    expect(await page.locator('.json-tree details:has(> summary:has-text("deepest"))').getAttribute('open')).toBeNull();
  });

  it('says so when the document does not exist at the version, and when from/at are not versions of the section', async () => {
    const { repo, v1 } = threeVersions();
    const other = seeder(world.em);
    const foreign = other.commit([hello({ elsewhere: true })]);
    let page = await world.open(`repo=${OWNER}/${repo}&view=document&ns=github&type=repo&id=octo/nobody`);
    expect(await page.locator('.doc-envelope .error').innerText()).toContain(
      'There is no document github/repo/octo/nobody at',
    );
    page = await world.open(`${docQuery(repo)}&from=${foreign}`);
    expect(await page.locator('[data-param="from"]').innerText()).toMatch(
      /"from" is not a version of this section: .*not a commit of the section/,
    );
    page = await world.open(`${docQuery(repo)}&at=${foreign}`);
    expect(await page.locator('[data-param="at"]').innerText()).toContain('"at" is not a version of this section');
    // Without its identity the frame opens the overview and says what the document view needs.
    page = await world.open(`repo=${OWNER}/${repo}&view=document&ns=github`);
    expect(await page.locator('.problems').innerText()).toContain('view=document needs "type" and "id"');
    // A version the section once had, replaced by a compaction: the kept commit names it in a trailer.
    const s = seeder(world.em);
    const kept = s.commit([hello({ n: 1 })], [], `kept\n\nDocdb-Compacted-From: ${v1}`);
    page = await world.open(`${docQuery(s.repo)}&from=${v1}`);
    const said = page.locator('[data-param="from"]');
    expect(await said.innerText()).toContain('was removed from refs/docdb/documents by a compaction');
    expect(await said.innerText()).toContain(`commit ${kept} holds the same tree`);
    expect(await said.locator('a').getAttribute('href')).toContain(`from=${kept}`);
  });

  it('fits a 375 px wide screen with its controls reachable', async () => {
    const { repo, v1, v3 } = threeVersions();
    const page = await world.newPage();
    await page.setViewportSize({ width: 375, height: 700 });
    await world.open(`${docQuery(repo)}&from=${v1}&to=${v3}`, page);
    expect(await fitsWidth(page)).toBe(true);
    for (const sel of ['#doc-from', '#doc-to', 'form.compare button', '.versions-list a >> nth=0']) {
      const box = (await page.locator(sel).boundingBox())!;
      expect(box.x + box.width, sel).toBeLessThanOrEqual(375);
    }
  });
});
