/** The viewer's frame in Chromium: it loads, reads its state from the URL and says what is wrong with a bad one. */
import { describe, expect, it } from 'vitest';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();

describe('viewer frame', () => {
  it('shows the open form without a repository', async () => {
    const page = await world.open('');
    expect(await page.locator('form.open input[name="repo"]').count()).toBe(1);
  });

  it('names a malformed parameter and what is allowed', async () => {
    const repo = freshRepo(world.em);
    const page = await world.open(`repo=${OWNER}/${repo}&view=pie&at=nope`);
    const text = await page.locator('.problems').innerText();
    expect(text).toContain('"view" must be one of overview, table, document, diff, chart, file');
    expect(text).toContain('"at" must be a 40-character commit SHA');
  });
});
