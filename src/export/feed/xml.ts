/**
 * A minimal XML 1.0 writer for the Atom feed: every text and attribute value escaped, and every character XML 1.0
 * forbids (most C0 controls, U+FFFE, U+FFFF, unpaired surrogates) replaced — a document name, a commit message or
 * an author taken from the section can hold them, and one such character makes the whole feed unreadable.
 * Pure: no I/O, no parsing.
 */

/** Characters XML 1.0 does not allow in a document (§2.2 Char), unpaired surrogates included. */
const FORBIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` with every character XML 1.0 forbids replaced by U+FFFD (the replacement character), so the text
 * round-trips through any XML reader.
 *
 * @example
 * xmlChars('a\u0000b'); // 'a\ufffdb'
 */
export function xmlChars(text: string): string {
  return text.replace(FORBIDDEN, '\ufffd');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * `text` safe as XML character data or an attribute value: markup characters escaped (`>` too, so `]]>` never
 * appears), forbidden characters replaced ({@link xmlChars}).
 *
 * @example
 * xmlEscape('<script>]]>'); // '&lt;script&gt;]]&gt;'
 */
export function xmlEscape(text: string): string {
  return xmlChars(text).replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/**
 * The text of an element written by {@link xmlEscape}, decoded (only the five entities it writes; anything else
 * is left as it is, so a foreign entity never expands).
 *
 * @example
 * xmlUnescape('&lt;a&gt; &amp;amp;'); // '<a> &amp;'
 */
export function xmlUnescape(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => UNESCAPES[name] as string);
}

const UNESCAPES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An element: its name, attributes, and children (elements, or text that is escaped when written). */
export interface XmlElement {
  name: string;
  attrs?: Record<string, string | undefined>;
  children?: readonly (XmlElement | string)[];
}

/**
 * Shorthand for an {@link XmlElement}; undefined attributes are left out.
 *
 * @example
 * el('link', { rel: 'alternate', href: url });
 * el('title', {}, ['+3 github/repo']);
 */
export function el(
  name: string,
  attrs: Record<string, string | undefined> = {},
  children: readonly (XmlElement | string)[] = [],
): XmlElement {
  return { name, attrs, children };
}

/**
 * `node` as XML text, indented two spaces per level (an element holding only text stays on one line).
 *
 * @example
 * writeXml(el('feed', { xmlns: 'http://www.w3.org/2005/Atom' }, [el('title', {}, ['a & b'])]));
 * // '<feed xmlns="http://www.w3.org/2005/Atom">\n  <title>a &amp; b</title>\n</feed>\n'
 */
export function writeXml(node: XmlElement, depth = 0): string {
  const pad = '  '.repeat(depth);
  const attrs = Object.entries(node.attrs ?? {})
    .filter((a): a is [string, string] => a[1] !== undefined)
    .map(([k, v]) => ` ${k}="${xmlEscape(v)}"`)
    .join('');
  const children = node.children ?? [];
  if (children.length === 0) return `${pad}<${node.name}${attrs}/>\n`;
  if (children.every((c) => typeof c === 'string')) {
    return `${pad}<${node.name}${attrs}>${children.map((c) => xmlEscape(c as string)).join('')}</${node.name}>\n`;
  }
  const inner = children
    .map((c) => (typeof c === 'string' ? `${pad}  ${xmlEscape(c)}\n` : writeXml(c, depth + 1)))
    .join('');
  return `${pad}<${node.name}${attrs}>\n${inner}${pad}</${node.name}>\n`;
}
