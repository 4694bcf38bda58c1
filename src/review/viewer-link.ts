/**
 * The link from the review to the viewer's section diff (src/viewer/state.ts: `repo`, `ref`, `preview`,
 * `view=diff`, `from`, `to`): only to an http(s) viewer, and written so Markdown cannot read anything else into it.
 */
import { httpUrl, viewerUrl } from '../core/viewer-url.js';
import type { Review } from './types.js';

export { httpUrl };

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
 * viewerDiffUrl(review); // 'https://octo.github.io/viewer/?repo=octo%2Fdata&ref=refs%2Fdocdb%2Fdocuments&preview=42&view=diff&from=…&to=…'
 */
export function viewerDiffUrl(
  review: Pick<Review, 'viewerUrl' | 'preview' | 'base' | 'repository' | 'section' | 'pullRequest'>,
): string | undefined {
  if (review.viewerUrl === undefined || review.preview === null || review.base === null) return undefined;
  // `preview=N`: the viewer opens the preview ref (the tip is in its history; the section alone does not know
  // the preview commit).
  const href = viewerUrl(review.viewerUrl, {
    repo: review.repository,
    ref: review.section,
    preview: review.pullRequest,
    view: 'diff',
    from: review.base,
    to: review.preview.version,
  });
  return href === undefined ? undefined : linkSafe(href);
}
