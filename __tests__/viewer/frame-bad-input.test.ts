/**
 * Bad input gets a clear sentence in the page (issue 29 "Tests"): a repository that does not exist or is
 * private without a token, a section with no documents, a ref that does not exist, a ref that is not a
 * section, malformed URL parameters. (A file that is not JSON/CSV: file.test.ts.)
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();
const said = (page: Page, selector: string) => page.locator(selector).innerText();

describe('bad input', () => {
  it('a repository that does not exist', async () => {
    const page = await world.open(`repo=${OWNER}/no-such-repo`);
    expect(await said(page, 'main .error')).toBe(
      `Repository ${OWNER}/no-such-repo was not found — or it is private and needs a token: add one under “Token” above.`,
    );
    expect(await page.getAttribute('body', 'data-state')).toBe('error');
  });

  it('a private repository without a token', async () => {
    const repo = freshRepo(world.em, { private: true });
    const page = await world.open(`repo=${OWNER}/${repo}`);
    expect(await said(page, 'main .error')).toContain('or it is private and needs a token');
  });

  it('a section with no documents', async () => {
    const repo = freshRepo(world.em);
    const tip = world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: 'refs/docdb/documents',
      orphan: true,
      files: { '_docdb/indexes.json': '{"version":1,"indexes":[]}', 'notes/readme.txt': 'not a document' },
    });
    const page = await world.open(`repo=${OWNER}/${repo}`);
    expect(await said(page, 'main .notice')).toBe(
      `This section holds no documents at ${tip.slice(0, 7)}: its tree has no <namespace>/<type>/<id>.json file.`,
    );
  });

  it('a ref that does not exist', async () => {
    const repo = freshRepo(world.em);
    const page = await world.open(`repo=${OWNER}/${repo}&section=nope`);
    expect(await said(page, 'main .notice')).toBe(
      `refs/docdb/nope does not exist in ${OWNER}/${repo}: there is no such ref (check the section name or the ref).`,
    );
    expect(await said(page, '.location .version')).toContain('no such ref');
    // Every view says it the same way: the frame draws no view for a ref that does not exist.
    for (const view of [
      'view=table&ns=a&type=b',
      'view=document&ns=a&type=b&id=c',
      'view=chart&ns=a&type=b',
      'view=diff',
    ]) {
      const other = await world.open(`repo=${OWNER}/${repo}&section=nope&${view}`);
      expect(await said(other, 'main .notice')).toBe(
        `refs/docdb/nope does not exist in ${OWNER}/${repo}: there is no such ref (check the section name or the ref).`,
      );
    }
  });

  it('a version that is not a commit of the section', async () => {
    const repo = freshRepo(world.em);
    world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: 'refs/docdb/documents',
      orphan: true,
      files: { 'a/b/1.json': JSON.stringify({ namespace: 'a', doc_type: 'b', id: '1', data: {} }) },
    });
    const stranger = 'f'.repeat(40);
    const page = await world.open(`repo=${OWNER}/${repo}&at=${stranger}`);
    expect(await said(page, 'main .error')).toContain(
      `version ${stranger} is not a commit of the section refs/docdb/documents (not reachable from its tip)`,
    );
  });

  it('a ref that is not a section', async () => {
    const repo = freshRepo(world.em);
    const page = await world.open(`repo=${OWNER}/${repo}&ref=refs/heads/main`);
    const text = await said(page, 'main .notice');
    expect(text).toMatch(
      /^refs\/heads\/main is not a docdb section: at [0-9a-f]{7} its tree holds no <namespace>\/<type>\/<id>\.json document \(1 other file\(s\)\)\./,
    );
    expect(text).toContain(
      `To list its data files, add view=file to the URL (?repo=${OWNER}/${repo}&ref=refs/heads/main&view=file); to open one, path= (for example ?repo=${OWNER}/${repo}&ref=refs/heads/main&path=data/x.json).`,
    );
  });

  it('malformed parameters are named with what is allowed, and the rest still opens', async () => {
    const repo = freshRepo(world.em);
    world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: 'refs/docdb/documents',
      orphan: true,
      files: { 'a/b/1.json': JSON.stringify({ namespace: 'a', doc_type: 'b', id: '1', data: {} }) },
    });
    const page = await world.open(`repo=${OWNER}/${repo}&view=table&ns=a/b&agg=median`);
    const problems = await said(page, '.problems');
    expect(problems).toContain('"ns" must be one name (letters, digits, ".", "_", "-", "~"; no "/"), got "a/b"');
    expect(problems).toContain('"agg" must be one of count, sum, mean, min, max, got "median"');
    expect(problems).toContain('view=table needs "type"; showing the overview instead');
    expect(await page.locator('table.types td.num').innerText()).toBe('1');

    const file = await world.open(`repo=${OWNER}/${repo}&ref=refs/heads/main&path=../etc/passwd`);
    expect(await said(file, '.problems')).toContain('"path" must be a file path in the repository such as data/x.json');
    const bad = await world.open(`repo=not a repo`);
    expect(await said(bad, '.problems')).toContain('"repo" must be owner/name');
    expect(await bad.locator('form.open').count()).toBe(1);
  });
});

describe('a page without a usable IndexedDB', () => {
  it('reads without the persistent cache instead of failing', async () => {
    const repo = freshRepo(world.em);
    world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: 'refs/docdb/documents',
      orphan: true,
      files: { 'a/b/1.json': JSON.stringify({ namespace: 'a', doc_type: 'b', id: '1', data: {} }) },
    });
    const page = await world.newPage();
    // As in a private window that refuses storage: indexedDB is there, opening a database fails.
    await page.addInitScript(() => {
      const refuse = {
        open() {
          const request = { error: new DOMException('storage refused', 'UnknownError') } as unknown as IDBOpenDBRequest;
          setTimeout(() => (request.onerror as ((e: Event) => void) | null)?.(new Event('error')), 0);
          return request;
        },
      };
      Object.defineProperty(window, 'indexedDB', { configurable: true, get: () => refuse });
    });
    await world.open(`repo=${OWNER}/${repo}`, page);
    expect(await page.locator('table.types td.num').innerText()).toBe('1');
  });
});
