/**
 * Markdown for the review (comment, check-run summary, job summary): every string that comes from a
 * document, a key, a note or a review file passes through {@link escapeMarkdown}, and every rendering is
 * assembled inside a {@link Budget} of UTF-8 bytes, so no GitHub size limit can refuse it.
 */
import { codeText, escapeMarkdown } from '../core/markdown-text.js';

// The escaping lives beside the job summaries' (src/core/markdown-text.ts): one set of rules for all Markdown.
export { codeText, escapeMarkdown };

/**
 * `text` cut to at most `max` characters, the cut marked with `…` (which counts), never between the two
 * halves of a surrogate pair.
 *
 * @example
 * cut('abcdef', 4); // 'abc…'
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * The UTF-8 length of `text` without encoding it (GitHub's limits are on the stored text; bytes are never
 * fewer than UTF-16 code units, so a byte budget also keeps a character limit).
 *
 * @example
 * utf8Bytes('é'); // 2
 */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Bytes kept free while rows are added, so the "N more" sentence after them always fits. */
export const MORE_NOTE_ROOM = 400;

/**
 * Lines of Markdown within `max` UTF-8 bytes (newlines counted). `add` takes a line only when it fits;
 * `table` adds a header and rows while they fit and then says how many rows were left out.
 *
 * @example
 * const b = new Budget(60_000);
 * b.add('### docdb'); b.table(['| a |', '|---|'], rows, total, (n) => `… ${n} more`);
 * const markdown = b.text();
 */
export class Budget {
  private readonly lines: string[] = [];
  private used = 0;
  constructor(private readonly max: number) {}

  /** Bytes still free. */
  get remaining(): number {
    return this.max - this.used;
  }

  /** Add `line` when it fits with `keep` bytes to spare; false (and nothing added) when it does not. */
  add(line: string, keep = 0): boolean {
    const size = utf8Bytes(line) + 1;
    if (size + keep > this.remaining) return false;
    this.lines.push(line);
    this.used += size;
    return true;
  }

  /**
   * A table: `header` lines, then `rows` while they fit (keeping room for the note), then `more(n)` when
   * `total` rows were there and only some were added (`total` counts rows the caller never produced too).
   * Nothing but the note when not even one row fits under the header. Returns the rows added.
   */
  table(header: readonly string[], rows: Iterable<string>, total: number, more: (n: number) => string): number {
    const headerBytes = header.reduce((n, h) => n + utf8Bytes(h) + 1, 0);
    let added = 0;
    for (const row of rows) {
      const extra = added === 0 ? headerBytes : 0;
      if (utf8Bytes(row) + 1 + extra + MORE_NOTE_ROOM > this.remaining) break;
      if (added === 0) for (const h of header) this.add(h);
      this.add(row);
      added++;
    }
    if (added < total) {
      if (added > 0) this.add('');
      this.add(more(total - added));
    }
    return added;
  }

  /**
   * A part of at most `cap` bytes that leaves `keep` bytes free for what follows: `fill` writes it into a
   * budget of its own, which is then added here whole.
   */
  part(cap: number, keep: number, fill: (part: Budget) => void): void {
    const part = new Budget(Math.max(0, Math.min(cap, this.remaining - keep)));
    fill(part);
    const text = part.text();
    if (text !== '') this.add(text.slice(0, -1));
  }

  /** The Markdown, newline-terminated. */
  text(): string {
    return this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
  }
}
