/**
 * The review file's schema: every field typed, every string and array capped (limits.ts). The file comes
 * from a fork's artifact (`mode: review-publish`), so nothing in it is trusted until it passed this.
 */
import { z } from 'zod';
import {
  ANNOTATION_TITLE_CHARS,
  MAX_ANNOTATIONS,
  MAX_FIELD_CHANGES,
  MAX_KEY,
  MAX_NOTES,
  MAX_ROW_FIELDS,
  MAX_ROWS,
  MAX_STRING,
  MAX_TYPES,
  MAX_VIOLATIONS,
} from './limits.js';

const num = (n: number) => n.toLocaleString('en-US');
const str = (max = MAX_STRING) => z.string().max(max, { error: `must be at most ${num(max)} characters` });
const list = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z.array(item).max(max, { error: `must hold at most ${num(max)} ${what}` });
const count = z
  .number()
  .int({ error: 'must be a whole number' })
  .nonnegative({ error: 'must not be negative' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' });
const line = z
  .number()
  .int({ error: 'must be a whole number' })
  .positive({ error: 'must be a line number (1 or more)' });
const sha = z.string().regex(/^[0-9a-f]{40}$/, { error: 'must be a commit SHA: 40 lower-case hex digits' });
const change = z.enum(['added', 'modified', 'removed']);

const typeTotals = z.strictObject({ namespace: str(), type: str(), added: count, modified: count, removed: count });
const fieldChange = z.strictObject({
  namespace: str(),
  type: str(),
  field: str(),
  documents: count,
  sample: z.strictObject({ key: str(MAX_KEY), before: str(), after: str() }),
});
const violation = z.strictObject({ projection: str(), rule: str(), key: str(MAX_KEY).optional(), message: str() });
const row = z.strictObject({
  key: str(MAX_KEY),
  change,
  projection: str(),
  fields: list(str(), MAX_ROW_FIELDS, 'fields'),
});
const annotation = z.strictObject({
  path: str(),
  start_line: line,
  end_line: line,
  annotation_level: z.enum(['notice', 'warning', 'failure']),
  title: str(ANNOTATION_TITLE_CHARS),
  message: str(),
});

/** A review as the file holds it (section, preview and viewerUrl are checked further in review-file.ts). */
export const reviewSchema = z.strictObject({
  format: z.literal(1, { error: 'must be 1 (the only review-file format)' }),
  section: str(),
  repository: z.string().regex(/^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/, { error: 'must be owner/name' }),
  pullRequest: z
    .number()
    .int({ error: 'must be a whole number' })
    .positive({ error: 'must be a pull request number (1 or more)' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' }),
  headSha: sha,
  base: sha.nullable(),
  preview: z.strictObject({ ref: str(), version: sha }).nullable(),
  viewerUrl: str().optional(),
  changed: z.boolean(),
  conclusion: z.enum(['success', 'neutral', 'failure']),
  totals: list(typeTotals, MAX_TYPES, 'types'),
  fieldChanges: list(fieldChange, MAX_FIELD_CHANGES, 'field changes'),
  expectations: z.strictObject({
    declared: z.boolean(),
    count,
    violations: list(violation, MAX_VIOLATIONS, 'violations'),
  }),
  rows: list(row, MAX_ROWS, 'rows'),
  rowCount: count,
  annotations: list(annotation, MAX_ANNOTATIONS, 'annotations'),
  notes: list(str(), MAX_NOTES, 'notes'),
});
