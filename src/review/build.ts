/**
 * `buildReview`: from what `mode: review` computed (a dry run's documents, the expectations' violations)
 * to the compact `Review` every rendering and the review file work from. The documents are streamed once
 * (20,000 and more of them); what is kept is bounded (limits.ts), whatever their number.
 */

import { assertNotReservedRef } from '../core/refname.js';
import { FieldCounter, FirstRows, Totals } from './build-parts.js';
import { changedFields } from './field-diff.js';
import {
  ANNOTATION_KEYS,
  ANNOTATION_TITLE_CHARS,
  MAX_ANNOTATIONS,
  MAX_KEY,
  MAX_NOTES,
  MAX_ROWS,
  MAX_STRING,
  MAX_TRACKED_FIELDS,
  MAX_TYPES,
  MAX_VIOLATIONS,
} from './limits.js';
import { cut } from './markdown.js';
import type { Review, ReviewAnnotation, ReviewInput, ReviewProjection, ReviewViolation } from './types.js';
import { httpUrl } from './viewer-link.js';

/**
 * The review of a pull request's data change.
 *
 * @example
 * const review = buildReview({ section: 'refs/docdb/documents', repository: 'octo/data', pullRequest: 7,
 *   headSha, base: tip, preview: null, specFile: 'docdb.yml', projections: [{ name: 'repos', line: 3 }],
 *   expectations: { declared: false, violations: [] }, documents: changedDocuments(), notes: [] });
 * review.conclusion; // 'neutral': changes, no expectations declared
 */
export function buildReview(input: ReviewInput): Review {
  // The marker and every heading are made of it: a section the review file would refuse is refused here.
  assertNotReservedRef(input.section, 'section');
  const totals = new Totals();
  const fields = new FieldCounter();
  const rows = new FirstRows(MAX_ROWS);
  // One pass: an iterable of documents may be a generator that cannot be replayed.
  for (const doc of input.documents) {
    const changes = doc.change === 'modified' ? changedFields(doc.before, doc.after) : [];
    totals.add(doc);
    fields.add(doc, changes);
    rows.add(doc, changes);
  }
  const violations = input.expectations.violations;
  // A refusal lists its first 50 violations and counts them all: the count is the refusal's, never fewer
  // than those listed.
  const violationCount = Math.max(input.expectations.count ?? 0, violations.length);
  const allTypes = totals.list();
  const changed = rows.count > 0;
  const viewerUrl = input.viewerUrl === undefined ? undefined : httpUrl(input.viewerUrl);
  const notes = reviewNotes(input, {
    untrackedFields: fields.untracked,
    typesLeftOut: allTypes.length - MAX_TYPES,
    viewerUrlRefused: input.viewerUrl !== undefined && viewerUrl === undefined,
  });
  return {
    format: 1,
    section: input.section,
    repository: input.repository,
    pullRequest: input.pullRequest,
    headSha: input.headSha,
    base: input.base,
    preview: input.preview,
    ...(viewerUrl ? { viewerUrl } : {}),
    changed,
    conclusion: conclusionOf(violationCount, changed, input.expectations.declared),
    totals: allTypes.slice(0, MAX_TYPES),
    fieldChanges: fields.top(),
    expectations: {
      declared: input.expectations.declared,
      count: violationCount,
      violations: violations.slice(0, MAX_VIOLATIONS).map(keptViolation),
    },
    rows: rows.list(),
    rowCount: rows.count,
    annotations: annotationsOf(violations, input.projections, input.specFile),
    notes,
  };
}

/**
 * `failure` when an expectation fails; `success` when nothing would change or every declared expectation
 * holds; `neutral` for changes nothing was declared to check.
 *
 * @example
 * conclusionOf(0, true, false); // 'neutral'
 */
export function conclusionOf(violations: number, changed: boolean, declared: boolean): Review['conclusion'] {
  if (violations > 0) return 'failure';
  return !changed || declared ? 'success' : 'neutral';
}

function keptViolation(v: ReviewViolation): ReviewViolation {
  return {
    projection: cut(v.projection, MAX_STRING),
    rule: cut(v.rule, MAX_STRING),
    ...(v.key !== undefined ? { key: cut(v.key, MAX_KEY) } : {}),
    message: cut(v.message, MAX_STRING),
  };
}

/** The input's notes, then the builder's own, at most MAX_NOTES in all (the builder's come first to go). */
function reviewNotes(
  input: ReviewInput,
  facts: { untrackedFields: number; typesLeftOut: number; viewerUrlRefused: boolean },
): string[] {
  const own: string[] = [];
  if (facts.viewerUrlRefused) own.push('viewer-url is not an http(s) address: the comment has no viewer link.');
  if (facts.untrackedFields > 0)
    own.push(
      `${facts.untrackedFields} field change(s) were not ranked: the documents changed more than ${MAX_TRACKED_FIELDS.toLocaleString('en-US')} distinct fields.`,
    );
  if (facts.typesLeftOut > 0)
    own.push(
      `${facts.typesLeftOut} more document type(s) changed; the totals list the first ${MAX_TYPES.toLocaleString('en-US')}.`,
    );
  const room = Math.max(0, MAX_NOTES - own.length);
  const given = input.notes.slice(0, input.notes.length > room ? room - 1 : room);
  const dropped = input.notes.length - given.length;
  if (dropped > 0) given.push(`${dropped} more note(s) not shown.`);
  return [...given, ...own].slice(0, MAX_NOTES).map((n) => cut(n, MAX_STRING));
}

/**
 * One annotation per (projection, rule) that has violations, on the projection's line of the spec: how
 * many violations, and up to ANNOTATION_KEYS of the documents they are about.
 */
function annotationsOf(
  violations: readonly ReviewViolation[],
  projections: readonly ReviewProjection[],
  specFile: string,
): ReviewAnnotation[] {
  const groups = new Map<string, { projection: string; rule: string; count: number; keys: string[]; first: string }>();
  for (const v of violations) {
    const id = `${v.projection}\u0000${v.rule}`;
    let g = groups.get(id);
    if (!g) {
      if (groups.size >= MAX_ANNOTATIONS) continue;
      g = { projection: v.projection, rule: v.rule, count: 0, keys: [], first: v.message };
      groups.set(id, g);
    }
    g.count++;
    if (v.key !== undefined && g.keys.length < ANNOTATION_KEYS) g.keys.push(v.key);
  }
  const path = cut(specFile.replace(/^\.\//, ''), MAX_STRING);
  return [...groups.values()].map((g) => {
    const line = Math.max(1, projections.find((p) => p.name === g.projection)?.line ?? 1);
    const more = g.count - g.keys.length;
    // Keys cut so that five of them fit in the message beside the counts.
    const keys = g.keys.map((k) => cut(k, 150)).join(', ');
    const named = g.keys.length > 0 ? `: ${keys}${more > 0 ? ` and ${more} more` : ''}` : '';
    return {
      path,
      start_line: line,
      end_line: line,
      annotation_level: 'failure',
      title: cut(`docdb: ${g.rule} failed in projection ${g.projection}`, ANNOTATION_TITLE_CHARS),
      message: cut(
        `${g.count} violation(s) of ${g.rule} in projection ${g.projection}${named}. First: ${g.first}`,
        MAX_STRING,
      ),
    };
  });
}
