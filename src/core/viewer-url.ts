/**
 * Addresses in the docdb viewer (src/viewer/state.ts is the contract: `repo`, `ref`, `preview`, `view`, `at`,
 * `from`, `to`). Shared by everything that links to it — the review comment (src/review/viewer-link.ts) and the
 * Atom feed (src/export/feed/) — so the parameters are written in one place. Only an http(s) viewer is ever linked.
 */

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
  if (url.host === '' || url.username !== '' || url.password !== '') return undefined;
  return url.href;
}

/** What one viewer address opens (the parameters of src/viewer/state.ts, in its order). */
export interface ViewerTarget {
  /** `owner/name`. */
  repo: string;
  /** The full section ref (`refs/docdb/documents`). */
  ref: string;
  /** A pull request's review preview instead of the section. */
  preview?: number;
  view?: 'overview' | 'diff';
  /** The section at this commit (overview). */
  at?: string;
  /** The section diff between two commits. */
  from?: string;
  to?: string;
}

/**
 * The viewer at `base` opened on `target`, or undefined when `base` is not an http(s) address. The base's own
 * query and fragment are dropped (the state is all in the query).
 *
 * @example
 * viewerUrl('https://octo.github.io/viewer/', { repo: 'octo/data', ref: 'refs/docdb/documents', view: 'diff', from: a, to: b });
 * // 'https://octo.github.io/viewer/?repo=octo%2Fdata&ref=refs%2Fdocdb%2Fdocuments&view=diff&from=…&to=…'
 */
export function viewerUrl(base: string, target: ViewerTarget): string | undefined {
  const href = httpUrl(base);
  if (href === undefined) return undefined;
  const url = new URL(href);
  url.search = '';
  url.hash = '';
  const params = new URLSearchParams({ repo: target.repo, ref: target.ref });
  if (target.preview !== undefined) params.set('preview', String(target.preview));
  if (target.view !== undefined) params.set('view', target.view);
  for (const name of ['at', 'from', 'to'] as const) {
    const v = target[name];
    if (v !== undefined) params.set(name, v);
  }
  return `${url.href}?${params.toString()}`;
}
