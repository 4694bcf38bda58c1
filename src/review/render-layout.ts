/**
 * The layout the three renderings share: the headline and the expectations, then totals per type, the
 * expectations not met, the field changes and the notes (each part with its share of the budget), then
 * whatever the rendering adds (the documents), then the preview with the viewer link and the footer, whose
 * room is reserved before anything else so that no long part can push them out.
 */
import { Budget, utf8Bytes } from './markdown.js';
import {
  expectationLine,
  FIELDS_HEADER,
  fieldRow,
  footer,
  headline,
  noteLine,
  previewLines,
  TOTALS_HEADER,
  totalsRow,
  VIOLATIONS_HEADER,
  violationRow,
} from './render-parts.js';
import type { Review } from './types.js';

export type PartName = 'totals' | 'violations' | 'fields' | 'notes' | 'documents';

/** What a part's rows are, in the "… and N more" sentence. */
const ROWS_OF: Record<PartName, string> = {
  totals: 'type(s)',
  violations: 'violation(s)',
  fields: 'field(s)',
  notes: 'note(s)',
  documents: 'document(s)',
};

/**
 * The sentence after a table cut short: `n` more rows of `part`, and where to find them (`where`: ' in the job
 * summary', or '' when nothing else has them).
 *
 * @example
 * moreRows(1200, 'documents', ' in the job summary'); // '… and 1,200 more document(s) in the job summary.'
 */
export function moreRows(n: number, part: PartName, where: string): string {
  return `… and ${n.toLocaleString('en-US')} more ${ROWS_OF[part]}${where}.`;
}

export interface LayoutStyle {
  /** Characters of one string shown (longer ones are cut with `…`). */
  chars: number;
  /** Bytes each part may take at most (they may add up to more than the whole: the whole is kept anyway). */
  caps: Record<Exclude<PartName, 'documents'>, number>;
  /** The sentence after a table cut short: `n` rows of `part` not shown. */
  more: (n: number, part: PartName) => string;
  /** Fills what room is left after the shared parts (the documents table); nothing by default. */
  rest?: (part: Budget) => void;
}

function* map<T>(items: readonly T[], f: (item: T) => string): Iterable<string> {
  for (const item of items) yield f(item);
}

/**
 * The review's Markdown within `max` UTF-8 bytes, laid out as above, `first` lines (the comment's marker) on top.
 *
 * @example
 * const summary = layOut(review, 65_535, { chars: 200, caps, more: (n) => `… and ${n} more in the job summary.` });
 */
export function layOut(review: Review, max: number, style: LayoutStyle, first: readonly string[] = []): string {
  const b = new Budget(max);
  for (const line of first) b.add(line);
  b.add(headline(review, style.chars));
  b.add('');
  if (!review.changed) b.add('Nothing would change: the projections produce exactly the documents the section holds.');
  b.add(expectationLine(review));
  const preview = previewLines(review, style.chars);
  const tail = [...(preview.length > 0 ? ['', ...preview] : []), '', footer(review)];
  const keep = tail.reduce((n, line) => n + utf8Bytes(line) + 1, 0);
  sharedParts(b, review, keep, style);
  if (style.rest) b.part(max, keep, style.rest);
  for (const line of tail) b.add(line);
  return b.text();
}

function sharedParts(b: Budget, review: Review, keep: number, style: LayoutStyle): void {
  const { chars, caps, more } = style;
  b.part(caps.totals, keep, (p) => {
    if (review.totals.length === 0) return;
    p.add('');
    const rows = map(review.totals, (t) => totalsRow(t, chars));
    p.table(TOTALS_HEADER, rows, review.totals.length, (n) => more(n, 'totals'));
  });
  b.part(caps.violations, keep, (p) => {
    const { violations, count } = review.expectations;
    if (count === 0) return;
    p.add('');
    p.add('#### Expectations not met');
    p.table(
      VIOLATIONS_HEADER,
      map(violations, (v) => violationRow(v, chars)),
      count,
      (n) => more(n, 'violations'),
    );
  });
  b.part(caps.fields, keep, (p) => {
    const fields = review.fieldChanges;
    if (fields.length === 0) return;
    p.add('');
    p.add('#### Fields changed in the most documents');
    p.table(
      FIELDS_HEADER,
      map(fields, (f) => fieldRow(f, chars)),
      fields.length,
      (n) => more(n, 'fields'),
    );
  });
  b.part(caps.notes, keep, (p) => {
    if (review.notes.length === 0) return;
    p.add('');
    p.table(
      ['Notes:'],
      map(review.notes, (x) => noteLine(x, chars)),
      review.notes.length,
      (n) => more(n, 'notes'),
    );
  });
}
