/**
 * The pieces the three renderings share (comment, check-run summary, job summary; laid out by
 * render-layout.ts): the headline, the tables' header and rows, the preview line and the notes. Every string from the review — which may have
 * come from an untrusted file — is cut to `chars` characters and escaped (markdown.ts).
 */
import { codeText, cut, escapeMarkdown } from './markdown.js';
import type { FieldChange, Review, ReviewRow, ReviewViolation, TypeTotals } from './types.js';
import { viewerDiffUrl } from './viewer-link.js';

/** Characters of one string shown in the comment and the check run (the job summary shows them whole). */
export const SHORT_CHARS = 200;

const num = (n: number) => n.toLocaleString('en-US');
const esc = (s: string, chars: number) => escapeMarkdown(cut(s, chars));
const code = (s: string, chars: number) => codeText(cut(s, chars));

/**
 * The section's name without `refs/<root>/`: `refs/docdb/documents` → `documents`.
 *
 * @example
 * shortSection('refs/docdb/weather/daily'); // 'weather/daily'
 */
export function shortSection(section: string): string {
  const parts = section.split('/');
  return parts.length > 2 && parts[0] === 'refs' ? parts.slice(2).join('/') : section;
}

/** The first line: what would happen to which section. */
export function headline(review: Review, chars: number): string {
  const where = `${code(review.section, chars)} (pull request ${num(review.pullRequest)})`;
  if (!review.changed) return `### docdb: nothing would change in ${where}`;
  return `### docdb: ${num(review.rowCount)} document(s) would change in ${where}`;
}

/** One sentence about the expectations. */
export function expectationLine(review: Review): string {
  const { declared, count } = review.expectations;
  if (count > 0)
    return `**Expectations: ${num(count)} violation(s)** — this change would be refused by the section's checks.`;
  if (declared) return '**Expectations: all hold.**';
  return 'Expectations: none declared (no `expect:` or `schema:` in the spec).';
}

export const TOTALS_HEADER = ['| Type | Added | Modified | Removed |', '|---|--:|--:|--:|'];
export function totalsRow(t: TypeTotals, chars: number): string {
  return `| ${code(`${t.namespace}/${t.type}`, chars)} | ${num(t.added)} | ${num(t.modified)} | ${num(t.removed)} |`;
}

export const VIOLATIONS_HEADER = ['| Projection | Rule | Document | Problem |', '|---|---|---|---|'];
export function violationRow(v: ReviewViolation, chars: number): string {
  const key = v.key === undefined ? '' : code(v.key, chars);
  return `| ${esc(v.projection, chars)} | ${esc(v.rule, chars)} | ${key} | ${esc(v.message, chars)} |`;
}

export const FIELDS_HEADER = ['| Type | Field | Documents | Example | Before → after |', '|---|---|--:|---|---|'];
export function fieldRow(f: FieldChange, chars: number): string {
  // Values are JSON cut at 80 characters already (field-diff.ts); a forged file's are cut again here.
  const before = code(f.sample.before, 81);
  const after = code(f.sample.after, 81);
  return `| ${code(`${f.namespace}/${f.type}`, chars)} | ${code(f.field, chars)} | ${num(f.documents)} | ${code(f.sample.key, chars)} | ${before} → ${after} |`;
}

export const ROWS_HEADER = ['| Document | Change | Projection | Fields changed |', '|---|---|---|---|'];
export function documentRow(r: ReviewRow, chars: number): string {
  return `| ${code(r.key, chars)} | ${r.change} | ${esc(r.projection, chars)} | ${r.fields.map((f) => code(f, chars)).join(', ')} |`;
}

export function noteLine(note: string, chars: number): string {
  return `- ${esc(note, chars)}`;
}

/** The preview commit and the viewer's diff link, when there are. */
export function previewLines(review: Review, chars: number): string[] {
  if (review.preview === null) return [];
  const lines = [`Preview: version ${code(review.preview.version, 64)} on ${code(review.preview.ref, chars)}.`];
  const link = viewerDiffUrl(review);
  if (link !== undefined) lines.push('', `[Open the change in the viewer](${link})`);
  return lines;
}

/** Where the review was computed: the head commit and the section tip. */
export function footer(review: Review): string {
  const base =
    review.base === null ? 'a section that does not exist yet' : `section tip ${code(review.base.slice(0, 12), 12)}`;
  return `<sub>docdb review of head ${code(review.headSha.slice(0, 12), 12)} against ${base}; updated on every push.</sub>`;
}
