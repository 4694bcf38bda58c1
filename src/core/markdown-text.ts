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

/** A zero-width space, as a character reference: visible in the Markdown source, invisible when rendered. */
const ZWSP = '&#8203;';

/**
 * `text` as inert GitHub Markdown on one line: no HTML, no link, no table-breaking `|`, no code span, no
 * emphasis, no line break (`mdText` above turns each such character into a numeric
 * character reference), and no notification or autolink. GitHub finds `@mentions`, `#123` references,
 * e-mail addresses and `www.`/`scheme://` URLs in the text AFTER character references are decoded, so a
 * reference alone would still ping `@org/team`; a zero-width space after `@` and `#`, inside `://` and after
 * `www` breaks each pattern while the text reads the same (Dependabot neutralises mentions the same way).
 * `$` is escaped too: GitHub typesets `$…$` as math.
 *
 * @example
 * escapeMarkdown('@org/team <b>|'); // '&#64;&#8203;org/team &#60;b&#62;&#124;'
 * escapeMarkdown('[x](http://evil)'); // '&#91;x&#93;&#40;http&#58;&#8203;//evil&#41;'
 */
export function escapeMarkdown(text: string): string {
  // Where a zero-width space goes is marked with NUL first (a NUL of the text becomes one too: harmless).
  const marked = text.replace(/:\/\//g, ':\u0000//').replace(/www\./gi, (w) => `${w.slice(0, 3)}\u0000.`);
  // Split before escaping: mdText's own references (`&#58;`) carry a "#" that must stay one.
  const escaped = marked
    .split(/([@#\u0000])/)
    .map(escapePart)
    .join('');
  // `$…$` is math on GitHub: data could typeset its own coloured text. (mdText's output has no `$`.)
  return escaped.replace(/\$/g, '&#36;');
}

function escapePart(part: string): string {
  if (part === '@') return `&#64;${ZWSP}`;
  if (part === '#') return `&#35;${ZWSP}`;
  return part === '\u0000' ? ZWSP : mdText(part);
}

/**
 * `text` as inline code: `<code>` around {@link escapeMarkdown}'s output (a backtick code span could be
 * closed by the text itself; GitHub never links or notifies inside `<code>` either).
 *
 * @example
 * codeText('a`b'); // '<code>a&#96;b</code>'
 */
export function codeText(text: string): string {
  return `<code>${escapeMarkdown(text)}</code>`;
}

/**
 * Text from documents as inert Markdown (the refusal report's name for {@link escapeMarkdown}): a
 * character reference alone for `@` would still ping, since GitHub decodes references before it looks for
 * mentions.
 *
 * @example
 * mdUntrusted('@octo #1'); // '&#64;&#8203;octo &#35;&#8203;1'
 */
export const mdUntrusted = escapeMarkdown;
