/**
 * Escaping fed real attacks, and checked the way a reader meets it: the Markdown rendered by `marked` (GFM,
 * as GitHub renders comments), then the HTML inspected — one table cell, no element from the text, no link.
 */
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, reviewMarker } from '../../src/review/index.js';
import { Budget, codeText, cut, utf8Bytes } from '../../src/review/markdown.js';

const ZWSP = '\u200B';
const html = (md: string) => marked.parse(md, { gfm: true, async: false }) as string;
/** A two-column table whose first cell holds `text`, rendered. */
const tableWith = (cell: string) => html(`| a | b |\n|---|---|\n| ${cell} | end |\n`);
const decode = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d)))
    .replace(/&(amp|lt|gt|quot);/g, (_, n: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[n] as string);

const ATTACKS = [
  'a | b | c',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '[click](http://evil.example)',
  '](http://evil)',
  '![x](http://evil/pixel.png)',
  '`code` ``` fence',
  'line one\nline two\r\n| x | y |',
  '**bold** _it_ ~~s~~',
  '<!-- comment --> -->',
  '</details><details open>',
  '\\| escaped pipe',
  'https://evil.example/path www.evil.example',
  '&lt;script&gt; &#124;',
];

describe('escapeMarkdown', () => {
  it.each(ATTACKS)('keeps %j one inert table cell that reads as the text', (attack) => {
    const out = tableWith(escapeMarkdown(attack));
    expect(out.match(/<td>/g)).toHaveLength(2);
    expect(out).not.toMatch(/<(script|img|a|strong|em|del|code|details|br)\b/);
    expect(out).not.toContain('<!--');
    // What a reader sees is the text itself (zero-width spaces aside).
    const cell = /<td>(.*?)<\/td>/s.exec(out)?.[1] ?? '';
    expect(decode(cell).replaceAll(ZWSP, '')).toBe(attack);
  });

  it('writes no line break, so a value cannot end the table row or start a block', () => {
    expect(escapeMarkdown('a\nb\r\nc\rd')).not.toMatch(/[\r\n]/);
    expect(escapeMarkdown('x\n# heading\n- item')).not.toMatch(/[\r\n]/);
  });

  it('breaks @mentions, #references and autolinks with a zero-width space after decoding', () => {
    const shown = decode(escapeMarkdown('@org/team and @user, #12, me@example.com, http://a.example, WWW.b.example'));
    expect(shown).toBe(
      `@${ZWSP}org/team and @${ZWSP}user, #${ZWSP}12, me@${ZWSP}example.com, http:${ZWSP}//a.example, WWW${ZWSP}.b.example`,
    );
    // No "@" directly followed by a name character: GitHub's mention and e-mail patterns need one.
    expect(shown).not.toMatch(/@[A-Za-z0-9]/);
    expect(shown).not.toMatch(/#\d/);
    expect(shown).not.toMatch(/:\/\//);
  });

  it('writes no "$": GitHub would typeset $…$ from the data as math', () => {
    const out = escapeMarkdown('$\\color{red}{\\text{APPROVED}}$');
    expect(out).not.toContain('$');
    expect(decode(out)).toBe('$\\color{red}{\\text{APPROVED}}$');
  });

  it('leaves plain names as they are', () => {
    expect(escapeMarkdown('github/repo/octo-org/widgets.json')).toBe('github/repo/octo-org/widgets.json');
  });

  it('codeText is an inert <code>: a backtick or </code> in the text cannot close it', () => {
    const out = html(codeText('a`b</code><b>x</b>'));
    expect(out.match(/<code>/g)).toHaveLength(1);
    expect(out).not.toContain('<b>');
  });
});

describe('reviewMarker', () => {
  it('is a hidden HTML comment naming the section', () => {
    expect(reviewMarker('refs/docdb/documents')).toBe('<!-- docdb-review: refs/docdb/documents -->');
    expect(html(reviewMarker('refs/docdb/documents')).trim()).toBe('<!-- docdb-review: refs/docdb/documents -->');
  });

  it.each(['refs/x/a-->b', 'refs/x/a--!>b', 'refs/x/a\n<b>x</b>', 'refs/x/<!--', 'refs/x/a->'])(
    'a section like %j cannot close the comment',
    (section) => {
      const marker = reviewMarker(section);
      const body = marker.slice('<!--'.length, -'-->'.length);
      expect(body).not.toMatch(/-->|--!>|<!--|[<>\n]/);
      // Rendered, the whole marker is one comment and nothing else.
      const out = html(`${marker}\n\nafter`);
      expect(out.startsWith(marker)).toBe(true);
      expect(out.slice(marker.length).trim()).toBe('<p>after</p>');
    },
  );

  it('different sections never share a marker (the encoding is one-to-one)', () => {
    expect(reviewMarker('refs/x/a b')).not.toBe(reviewMarker('refs/x/a%20b'));
    expect(reviewMarker('refs/docdb/documents')).not.toBe(reviewMarker('refs/docdb/documents2'));
  });
});

describe('cut, utf8Bytes, Budget', () => {
  it('cut marks the cut and keeps the limit', () => {
    expect(cut('abcdef', 4)).toBe('abc…');
    expect(cut('abc', 4)).toBe('abc');
  });

  it('utf8Bytes counts like Buffer.byteLength', () => {
    for (const s of ['abc', 'é', '€', '😀', 'a\uD800b', 'x'.repeat(10)])
      expect(utf8Bytes(s)).toBe(Buffer.byteLength(s));
  });

  it('a table stops adding rows before the budget and says how many it left out', () => {
    const b = new Budget(1_000);
    const rows = [...Array(100).keys()].map((i) => `| row ${i} ${'x'.repeat(40)} |`);
    const added = b.table(['| h |', '|---|'], rows, 250, (n) => `… and ${n} more`);
    const text = b.text();
    expect(utf8Bytes(text)).toBeLessThanOrEqual(1_000);
    expect(added).toBeGreaterThan(0);
    expect(text.trimEnd().endsWith(`… and ${250 - added} more`)).toBe(true);
  });
});
