/**
 * The loader of the search engine's text rules (src/browser/search-text.ts). It lives here, beside the other
 * lazy pieces, because scripts/build-browser.mjs routes every `import()` from this directory through a
 * stand-in that also re-exports the entry: the piece then shares the entry's ONE chunk instead of splitting
 * off extra shared chunks (one held esbuild's export helper, a 120-byte file every page downloaded first).
 */

/**
 * The search engine's text rules — `fieldText`, `tokenize`, `termWeight` (docs/search.md) — loaded on first
 * use, so the entry does not carry them (a page that shows search hits needs them; most pages never do).
 *
 * @example
 * const { tokenize, termWeight } = await loadSearchText();
 */
export const loadSearchText = () => import('../search-text.js');
