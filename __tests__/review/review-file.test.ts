/**
 * The review file is untrusted (a fork's artifact): each forged file is refused with InvalidConfig naming
 * the field and what is allowed, and a review this code builds always reads back.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildReview, type Review, readReviewFile, writeReviewFile } from '../../src/review/index.js';
import { MAX_FILE_BYTES } from '../../src/review/limits.js';
import { repoDocuments, reviewInput } from './sample.js';

const review = (): Review =>
  buildReview(
    reviewInput(repoDocuments(6_000), {
      expectations: { declared: true, violations: [{ projection: 'repos', rule: 'unique', key: 'k', message: 'dup' }] },
      notes: ['a note'],
    }),
  );
const json = () => JSON.parse(writeReviewFile(review())) as Record<string, unknown>;

/** The InvalidConfig `readReviewFile` throws for `file`. */
function refusal(file: unknown): { field: string; message: string; allowed: string } {
  try {
    readReviewFile(typeof file === 'string' ? file : JSON.stringify(file));
  } catch (e) {
    const err = e as { code: string; message: string; data: { field: string; allowed: string } };
    expect(err.code).toBe('InvalidConfig');
    return { field: err.data.field, message: err.message, allowed: err.data.allowed };
  }
  throw new Error('the file was accepted');
}

afterEach(() => vi.restoreAllMocks());

describe('writeReviewFile / readReviewFile', () => {
  it('round-trips a built review', () => {
    const r = review();
    expect(readReviewFile(writeReviewFile(r))).toEqual(r);
  });

  it('round-trips the largest review the builder makes: rows dropped from the end to stay under 8 MiB', () => {
    const long = (i: number) => `${String(i).padStart(5, '0')}${'k'.repeat(1_019)}`;
    const docs = [...repoDocuments(6_000)].map((d, i) => ({
      ...d,
      key: long(i),
      projection: 'p'.repeat(1_000),
      // Ten changed fields with 1,000-character names each.
      before: Object.fromEntries([...Array(10).keys()].map((f) => [`${f}${'f'.repeat(999)}`, 0])),
      after: Object.fromEntries([...Array(10).keys()].map((f) => [`${f}${'f'.repeat(999)}`, 1])),
      change: 'modified' as const,
    }));
    const r = buildReview(reviewInput(docs));
    expect(JSON.stringify(r).length).toBeGreaterThan(MAX_FILE_BYTES);
    const file = writeReviewFile(r);
    expect(Buffer.byteLength(file)).toBeLessThanOrEqual(MAX_FILE_BYTES);
    const back = readReviewFile(file);
    expect(back.rowCount).toBe(6_000);
    expect(back.rows.length).toBeGreaterThan(500);
    expect(back.rows).toEqual(r.rows.slice(0, back.rows.length));
    // As many as fit: one more would not.
    const oneMore = JSON.stringify({ ...r, rows: r.rows.slice(0, back.rows.length + 1) });
    expect(Buffer.byteLength(oneMore)).toBeGreaterThan(MAX_FILE_BYTES);
  });
});

describe('readReviewFile refuses forged files', () => {
  it('checks the size before parsing', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const huge = `{"format":1,"notes":["${'x'.repeat(MAX_FILE_BYTES)}"]}`;
    expect(refusal(huge)).toMatchObject({ field: 'review-file', allowed: 'at most 8 MiB of JSON' });
    // Multi-byte text under 8 Mi characters but over 8 MiB.
    expect(refusal('é'.repeat(MAX_FILE_BYTES / 2 + 1)).field).toBe('review-file');
    expect(parse).not.toHaveBeenCalled();
  });

  it('not JSON, or not an object', () => {
    expect(refusal('{"format":1,')).toMatchObject({
      field: 'review-file',
      message: expect.stringContaining('is not JSON'),
    });
    expect(refusal('[]').field).toBe('review-file');
  });

  it.each([
    ['wrong type', (f: Record<string, unknown>) => ({ ...f, pullRequest: '42' }), 'pullRequest'],
    ['negative pull request', (f: Record<string, unknown>) => ({ ...f, pullRequest: -1 }), 'pullRequest'],
    ['fractional count', (f: Record<string, unknown>) => ({ ...f, rowCount: 1.5 }), 'rowCount'],
    ['headSha not hex', (f: Record<string, unknown>) => ({ ...f, headSha: 'z'.repeat(40) }), 'headSha'],
    ['headSha short', (f: Record<string, unknown>) => ({ ...f, headSha: 'abc' }), 'headSha'],
    ['base not a SHA', (f: Record<string, unknown>) => ({ ...f, base: 'main' }), 'base'],
    ['format 2', (f: Record<string, unknown>) => ({ ...f, format: 2 }), 'format'],
    ['unknown conclusion', (f: Record<string, unknown>) => ({ ...f, conclusion: 'action_required' }), 'conclusion'],
    [
      '6,000 rows',
      (f: Record<string, unknown>) => ({ ...f, rows: Array(6_000).fill((f.rows as unknown[])[0]) }),
      'rows',
    ],
    [
      '51 violations',
      (f: Record<string, unknown>) => ({
        ...f,
        expectations: {
          declared: true,
          count: 51,
          violations: Array(51).fill({ projection: 'p', rule: 'r', message: 'm' }),
        },
      }),
      'expectations.violations',
    ],
    [
      '11 field changes',
      (f: Record<string, unknown>) => ({ ...f, fieldChanges: Array(11).fill((f.fieldChanges as unknown[])[0]) }),
      'fieldChanges',
    ],
    [
      '51 annotations',
      (f: Record<string, unknown>) => ({ ...f, annotations: Array(51).fill((f.annotations as unknown[])[0]) }),
      'annotations',
    ],
    ['21 notes', (f: Record<string, unknown>) => ({ ...f, notes: Array(21).fill('n') }), 'notes'],
    [
      'a string over 1,000 characters',
      (f: Record<string, unknown>) => ({ ...f, notes: ['x'.repeat(1_001)] }),
      'notes[0]',
    ],
    [
      'a key over 1,024 characters',
      (f: Record<string, unknown>) => ({
        ...f,
        rows: [{ ...(f.rows as Record<string, unknown>[])[0], key: 'k'.repeat(1_025) }],
      }),
      'rows[0].key',
    ],
    [
      '11 fields in a row',
      (f: Record<string, unknown>) => ({
        ...f,
        rows: [{ ...(f.rows as Record<string, unknown>[])[0], fields: Array(11).fill('data.a') }],
      }),
      'rows[0].fields',
    ],
    [
      'annotation line 0',
      (f: Record<string, unknown>) => ({
        ...f,
        annotations: [{ ...(f.annotations as Record<string, unknown>[])[0], start_line: 0 }],
      }),
      'annotations[0].start_line',
    ],
    ['a field this format does not have', (f: Record<string, unknown>) => ({ ...f, script: 'x' }), 'review-file'],
    [
      'viewerUrl javascript:',
      (f: Record<string, unknown>) => ({ ...f, viewerUrl: 'javascript:alert(document.cookie)' }),
      'viewerUrl',
    ],
    [
      'viewerUrl with credentials',
      (f: Record<string, unknown>) => ({ ...f, viewerUrl: 'https://user:pw@v.example/' }),
      'viewerUrl',
    ],
    ['section not a ref', (f: Record<string, unknown>) => ({ ...f, section: 'refs/docdb/a b' }), 'section'],
    [
      'section in a reserved space',
      (f: Record<string, unknown>) => ({ ...f, section: 'refs/docdb/documents.quarantine/1' }),
      'section',
    ],
    [
      'preview of another ref',
      (f: Record<string, unknown>) => ({ ...f, preview: { ref: 'refs/heads/main', version: 'c'.repeat(40) } }),
      'preview.ref',
    ],
    [
      'repository not owner/name',
      (f: Record<string, unknown>) => ({ ...f, repository: 'octo/data/../x' }),
      'repository',
    ],
    ['rowCount below the rows', (f: Record<string, unknown>) => ({ ...f, rowCount: 1 }), 'rowCount'],
    [
      'violation count below the violations',
      (f: Record<string, unknown>) => ({
        ...f,
        expectations: { declared: true, count: 0, violations: [{ projection: 'p', rule: 'r', message: 'm' }] },
      }),
      'expectations.count',
    ],
  ])('%s', (_what, forge, field) => {
    const r = refusal(forge(json()));
    expect(r.field).toBe(field);
    expect(r.message).toContain(field === 'review-file' ? 'review file' : `review file: ${field} `);
    expect(r.allowed.length).toBeGreaterThan(0);
  });

  it('never repeats a forged value in the error', () => {
    const r = refusal({ ...json(), viewerUrl: 'javascript:alert("::error::pwned")' });
    expect(r.message).not.toContain('pwned');
    const unknown = refusal({ ...json(), ['x'.repeat(500)]: 1 });
    expect(unknown.message.length).toBeLessThan(300);
  });
});
