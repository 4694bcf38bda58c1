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

  it('its Content-Security-Policy lets it reach the API origin only and run no injected script', async () => {
    const repo = freshRepo(world.em);
    const page = await world.open(`repo=${OWNER}/${repo}`);
    // The page did reach the API origin its policy names (the section's ref).
    const sent = await page.evaluate(
      () => (window as unknown as { docdbViewer: { stats(): { requests: number } } }).docdbViewer.stats().requests,
    );
    expect(sent).toBeGreaterThan(0);
    const outcome = await page.evaluate(async (elsewhere) => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
      const fetched = await fetch(elsewhere).then(
        () => 'sent',
        () => 'refused',
      );
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 0));
      return { fetched, violations, injected: (window as unknown as { injected?: boolean }).injected ?? false };
    }, `${world.url}/elsewhere`);
    expect(outcome).toEqual({ fetched: 'refused', violations: ['connect-src', 'script-src-elem'], injected: false });
  });
});
