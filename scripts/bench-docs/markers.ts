/**
 * Benchmark markers in Markdown: `<!-- bench:NAME -->…<!-- /bench -->`. The text between is replaced with
 * figure NAME. A marker written on a line of its own is a block: the figure goes on lines of its own with a
 * blank line each side (a table or paragraph stays a Markdown block; a line that starts with `<!--` would be
 * raw HTML). Any other marker is inline, inside a sentence, and its figure must be one line.
 */

/** A marker names its figure in lowercase (so prose can write `<!-- bench:NAME -->` without opening one). */
const MARKER = /<!-- bench:([a-z0-9-]+) -->([\s\S]*?)<!-- \/bench -->/g;
const OPENING = /<!-- bench:[a-z0-9-]+ -->/;

/**
 * Replace the content of every marker in `text` with `render(name)`; returns the new text and the names met.
 * Throws on an opening marker without its closing one (a half-edited file must not be rewritten).
 *
 * @example
 * fillMarkers('in <!-- bench:n -->7<!-- /bench --> requests', () => '8').text // 'in <!-- bench:n -->8<!-- /bench --> requests'
 */
export function fillMarkers(text: string, render: (name: string) => string): { text: string; names: string[] } {
  const names: string[] = [];
  const out = text.replace(MARKER, (_, name: string, inner: string) => {
    if (OPENING.test(inner)) throw new Error(`marker bench:${name} is not closed before the next one`);
    names.push(name);
    const figure = render(name).trim();
    const block = inner.startsWith('\n');
    if (!block && figure.includes('\n'))
      throw new Error(`bench:${name} renders several lines: put its marker on a line of its own`);
    const body = block ? `\n\n${figure}\n\n` : figure;
    return `<!-- bench:${name} -->${body}<!-- /bench -->`;
  });
  const opened = text.match(new RegExp(OPENING.source, 'g'))?.length ?? 0;
  if (opened !== names.length)
    throw new Error(`${opened - names.length} marker(s) <!-- bench:… --> without <!-- /bench -->`);
  return { text: out, names };
}
