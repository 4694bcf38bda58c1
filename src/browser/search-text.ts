/**
 * The search engine's text rules for pages that show hits (the viewer's snippets): a field's searchable
 * text, its tokens, and the weight with which a query word matches a term (docs/search.md). Reached through
 * `loadSearchText()` so the browser entry carries none of it: a page downloads it with its first search.
 */
export { termWeight } from '../document/search/match.js';
export { fieldText, tokenize } from '../document/search/text.js';
