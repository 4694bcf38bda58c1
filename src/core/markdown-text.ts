/**
 * Untrusted text (keys, names, messages from source data or a file) as inert GitHub-flavoured Markdown.
 * Shared by the job summaries (src/action/) and the pull-request review (src/review/): one set of rules for
 * everything docdb writes as Markdown.
 */
import { BIDI_CONTROLS, visibleEscape } from './terminal-text.js';

/**
 * Text from source data (keys, names, tags) as inert Markdown: every character that Markdown or HTML could
 * read as syntax becomes a numeric character reference, which GitHub renders as the character itself. A
 * release tag like ``v1`</details><img src=x onerror=…>`` then shows as text and cannot close a code span,
 * a table cell or the <details> block around it.
 *
 * @example
 * mdText('a|b<c>'); // 'a&#124;b&#60;c&#62;'
 * mdText('abc\u202Efdp.exe'); // 'abc&#92;u202Efdp.exe' (shown as abc\u202Efdp.exe)
 */
export function mdText(s: string): string {
  return s
    .replace(/[&<>"'`*_[\]()|\\~:\r\n]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(BIDI_CONTROLS, (c) => `&#92;${visibleEscape(c).slice(1)}`);
}

/**
 * Source text shown as code: `<code>` with escaped content (a backtick code span could be closed by the text).
 *
 * @example
 * code('a|b'); // '<code>a&#124;b</code>'
 */
export function code(s: string): string {
  return `<code>${mdText(s)}</code>`;
}

/**
 * Text from documents as inert Markdown: `mdText`, and `@` (a mention notifies) and `#` (an issue autolink).
 *
 * @example
 * mdUntrusted('@octo #1 <!-- x'); // '&#64;octo &#35;1 &#60;!-- x'
 */
export function mdUntrusted(s: string): string {
  // Split first: mdText's own references (`&#58;`) carry a "#" that must stay one.
  return s
    .split(/([@#])/)
    .map((part) => (part === '@' ? '&#64;' : part === '#' ? '&#35;' : mdText(part)))
    .join('');
}
