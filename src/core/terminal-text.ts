/**
 * Untrusted text made inert before it is printed to a terminal or a CI log. A git server's side-band
 * message, an API's error message or a source's data can carry bytes a terminal obeys rather than shows —
 * `ESC]0;…BEL` retitles the window, `ESC[2J` clears the screen, OSC 52 writes the clipboard, `\r`
 * overwrites the line just printed — and a line starting with `::` is a workflow command to a GitHub
 * runner (`::add-mask::`, `::error file=…::`, `::stop-commands::`), which reads both stdout and stderr of
 * every step, the CLI's included. Every such character is shown as a visible `\uXXXX` escape instead.
 * The CLI's output, the Action's log lines and annotations and the git-http store's server messages
 * all pass through {@link inertText}; the job summary (Markdown) shares {@link BIDI_CONTROLS}.
 */

/**
 * Unicode bidirectional controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI): they reorder the text around them
 * ("Trojan Source", CVE-2021-42574), so a name can read differently from what it is.
 */
export const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Everything a terminal may act on: C0 controls except tab and newline (so ESC, BEL, BS, `\r`, …), DEL,
 * C1 controls (U+0080–U+009F: a UTF-8 terminal may read U+009B as CSI and U+009D as OSC) and the bidi
 * controls.
 */
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A line a GitHub runner would read as a workflow command: `::name …::` (and the older `##[name]`) after
 * leading white space, which the runner trims
 * (https://docs.github.com/actions/reference/workflows-and-actions/workflow-commands).
 */
const WORKFLOW_COMMAND = /^([^\S\n]*)(::|##\[)/gm;

/**
 * `\uXXXX` for one UTF-16 code unit (upper-case hex, as JSON and JavaScript write it).
 *
 * @example
 * visibleEscape('\u001b'); // '\\u001B'
 */
export function visibleEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * `text` with every control character (see above) shown as `\uXXXX`, and the first character of a line
 * that would be a workflow command escaped the same way. Tabs and newlines are kept; the result is
 * unchanged when there is nothing to escape, and escaping twice changes nothing more. JSON stays valid
 * JSON with the same value (control characters can only occur inside its strings, where `\uXXXX` means
 * the same character).
 *
 * @example
 * inertText('remote: \u001b]0;pwned\u0007done'); // 'remote: \\u001B]0;pwned\\u0007done'
 * inertText('oops\n::add-mask::x'); // 'oops\n\\u003A:add-mask::x'
 */
export function inertText(text: string): string {
  return text.replace(CONTROLS, visibleEscape).replace(WORKFLOW_COMMAND, (_, space: string, command: string) => {
    return `${space}${visibleEscape(command)}${command.slice(1)}`;
  });
}
