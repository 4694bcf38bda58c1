/** The hidden marker that makes the review comment sticky: the publisher finds its own comment by it. */

/** Characters a section ref keeps as they are in the marker; everything else is percent-encoded. */
const PLAIN = /[A-Za-z0-9._/-]/;

/**
 * The hidden HTML comment that starts the review comment of `section`. The section is percent-encoded
 * outside `A-Z a-z 0-9 . _ / -`, so no section name can close the comment (`-->`, `--!>`), open another
 * or break the line, and two different sections never share a marker.
 *
 * @example
 * reviewMarker('refs/docdb/documents'); // '<!-- docdb-review: refs/docdb/documents -->'
 * reviewMarker('refs/x/a-->b'); // '<!-- docdb-review: refs/x/a--%3Eb -->'
 */
export function reviewMarker(section: string): string {
  let encoded = '';
  for (const c of section) {
    if (PLAIN.test(c)) encoded += c;
    else for (const b of new TextEncoder().encode(c)) encoded += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `<!-- docdb-review: ${encoded} -->`;
}
