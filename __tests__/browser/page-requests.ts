/**
 * A page's requests to one API, counted by the browser (Playwright's `request` and `response` events)
 * rather than by the page's own instrumented fetch: a request that bypassed that fetch is counted too, so
 * a request budget asserted with it cannot be met by hiding requests from the page's meter. Shared by the
 * viewer tests and bench/viewer.ts.
 */
import type { Page, Request, Response } from 'playwright-core';

export interface RequestCounter {
  /** Requests the page has sent to the API since counting started (answered from the HTTP cache or not). */
  readonly requests: number;
  /** Of their answers, how many were 304. */
  readonly notModified: number;
  /** Stop counting (the figures stay readable). */
  stop(): void;
}

/** Whether `url` is under `base` (same origin, and the base's path followed by `/`, `?` or nothing). */
function isUnder(url: string, base: string): boolean {
  const u = new URL(url);
  const b = new URL(base);
  if (u.origin !== b.origin) return false;
  const root = b.pathname.replace(/\/+$/, '');
  return root === '' || u.pathname === root || u.pathname.startsWith(`${root}/`);
}

/**
 * Count what `page` sends to the API at `apiUrl` from now on. Attach it before the page navigates to count
 * its first requests.
 *
 * @example
 * const counter = countRequests(page, em.url);
 * await page.goto(viewerUrl);
 * expect(counter.requests).toBeLessThanOrEqual(6);
 */
export function countRequests(page: Page, apiUrl: string): RequestCounter {
  let requests = 0;
  let notModified = 0;
  const onRequest = (r: Request) => {
    if (isUnder(r.url(), apiUrl)) requests++;
  };
  const onResponse = (r: Response) => {
    if (r.status() === 304 && isUnder(r.url(), apiUrl)) notModified++;
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  return {
    get requests() {
      return requests;
    },
    get notModified() {
      return notModified;
    },
    stop() {
      page.off('request', onRequest);
      page.off('response', onResponse);
    },
  };
}
