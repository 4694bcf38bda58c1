/**
 * The link from the review to the viewer's section diff (src/viewer/state.ts: `repo`, `ref`, `view=diff`,
 * `from`, `to`): only to an http(s) viewer, and written so Markdown cannot read anything else into it.
 */
import type { Review } from './types.js';

/**
 * `text` as a normalised http(s) address without credentials, or undefined (a `javascript:` or `data:`
 * address, or one that does not parse, is never linked).
 *
 * @example
 * httpUrl('https://octo.github.io/viewer/'); // 'https://octo.github.io/viewer/'
 * httpUrl('javascript:alert(1)'); // undefined
 */
export function httpUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return url.href;
}

/**
 * Every character of an address that could end or change a Markdown link destination (`(`, `)`, `<`, `>`,
 * space, quotes, backslash, control and non-ASCII characters) percent-encoded.
 */
function linkSafe(href: string): string {
  return href.replace(/[^A-Za-z0-9\-._~:/?#@!$&*+,;=%]/g, (c) =>
    [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/**
 * The viewer's diff from the section tip the review ran on to its preview commit, or undefined when there
 * is no viewer address, no preview or no base to compare with.
 *
 * @example
 * viewerDiffUrl(review); // 'https://octo.github.io/viewer/?repo=octo%2Fdata&ref=refs%2Fdocdb%2Fdocuments&view=diff&from=…&to=…'
 */
export function viewerDiffUrl(
  review: Pick<Review, 'viewerUrl' | 'preview' | 'base' | 'repository' | 'section'>,
): string | undefined {
  const base = review.viewerUrl === undefined ? undefined : httpUrl(review.viewerUrl);
  if (base === undefined || review.preview === null || review.base === null) return undefined;
  const url = new URL(base);
  url.search = '';
  url.hash = '';
  const params = new URLSearchParams({
    repo: review.repository,
    ref: review.section,
    view: 'diff',
    from: review.base,
    to: review.preview.version,
  });
  return linkSafe(`${url.href}?${params.toString()}`);
}
