import { describe, expect, it } from 'vitest';
import { buildReview, type ReviewDocument, type ReviewViolation } from '../../src/review/index.js';
import { MAX_ROWS } from '../../src/review/limits.js';
import { modified, repoDocuments, reviewInput } from './sample.js';

const violation = (projection: string, rule: string, key?: string): ReviewViolation => ({
  projection,
  rule,
  message: `${rule} broken`,
  ...(key !== undefined ? { key } : {}),
});

describe('buildReview: totals, fields, rows', () => {
  it('counts added, modified and removed per (namespace, type), in type order', () => {
    const docs: ReviewDocument[] = [
      modified('w/s/a', 1, 2, { namespace: 'weather', type: 'station' }),
      { ...modified('g/r/b', undefined, 1), change: 'added' },
      { ...modified('g/r/c', 1, undefined), change: 'removed' },
      modified('g/r/d', { a: 1 }, { a: 2 }),
    ];
    const r = buildReview(reviewInput(docs));
    expect(r.totals).toEqual([
      { namespace: 'github', type: 'repo', added: 1, modified: 1, removed: 1 },
      { namespace: 'weather', type: 'station', added: 0, modified: 1, removed: 0 },
    ]);
    expect(r.rowCount).toBe(4);
    expect(r.changed).toBe(true);
  });

  it('counts field changes per (type, field) over modified documents only, nested and added/removed fields included', () => {
    const docs: ReviewDocument[] = [
      modified('k3', { stars: 1, owner: { login: 'a' } }, { stars: 2, owner: { login: 'b' } }),
      modified('k1', { stars: 1, tags: ['x'] }, { stars: 5, tags: ['x', 'y'], fresh: true }),
      modified('k2', { stars: 1, old: 1 }, { stars: 1 }),
      { ...modified('k0', undefined, { stars: 9 }), change: 'added' },
    ];
    const r = buildReview(reviewInput(docs));
    const byField = Object.fromEntries(r.fieldChanges.map((f) => [f.field, f.documents]));
    expect(byField).toEqual({ 'data.stars': 2, 'data.owner.login': 1, 'data.tags': 1, 'data.fresh': 1, 'data.old': 1 });
    // The most documents first; the sample is the first key in key order (k1 < k3), not the first seen.
    expect(r.fieldChanges[0]).toEqual({
      namespace: 'github',
      type: 'repo',
      field: 'data.stars',
      documents: 2,
      sample: { key: 'k1', before: '1', after: '5' },
    });
    expect(r.fieldChanges.find((f) => f.field === 'data.old')?.sample).toEqual({
      key: 'k2',
      before: '1',
      after: '(absent)',
    });
    expect(r.rows.find((row) => row.key === 'k1')?.fields).toEqual(['data.fresh', 'data.stars', 'data.tags']);
    expect(r.rows.find((row) => row.key === 'k0')?.fields).toEqual([]);
  });

  it('keeps the 10 fields changed in the most documents', () => {
    // Field f<i> changes in i+1 documents.
    const docs: ReviewDocument[] = [];
    for (let i = 0; i < 15; i++)
      for (let d = 0; d <= i; d++) docs.push(modified(`f${i}-${d}`, { [`f${i}`]: 0 }, { [`f${i}`]: 1 }));
    const r = buildReview(reviewInput(docs));
    expect(r.fieldChanges.map((f) => f.field)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5].map((i) => `data.f${i}`));
    expect(r.fieldChanges[0]?.documents).toBe(15);
  });

  it('keeps the first 5,000 rows in key order from documents in any order, and counts them all', () => {
    const all = [...repoDocuments(12_000)];
    // A fixed shuffle: reversed halves interleaved.
    const shuffled = all.map((_, i) => all[i % 2 === 0 ? i / 2 : all.length - 1 - (i - 1) / 2] as ReviewDocument);
    const r = buildReview(reviewInput(shuffled));
    expect(r.rowCount).toBe(12_000);
    expect(r.rows).toHaveLength(MAX_ROWS);
    expect(r.rows.map((row) => row.key)).toEqual(all.slice(0, MAX_ROWS).map((d) => d.key));
  });

  it('streams the documents once: a generator that throws when iterated twice', () => {
    let runs = 0;
    const once: Iterable<ReviewDocument> = {
      [Symbol.iterator]() {
        runs++;
        if (runs > 1) throw new Error('documents iterated twice');
        return repoDocuments(20_000);
      },
    };
    const r = buildReview(reviewInput(once));
    expect(runs).toBe(1);
    expect(r.rowCount).toBe(20_000);
    // 20,000 documents of ~1 KB: only the kept rows, 10 fields and totals remain.
    expect(JSON.stringify(r).length).toBeLessThan(1_000_000);
  });

  it('stops ranking new fields after 10,000 distinct ones and says how many were not ranked', () => {
    const docs = [...Array(101).keys()].map((i) =>
      modified(`k${i}`, {}, Object.fromEntries([...Array(100).keys()].map((j) => [`f${i}_${j}`, j]))),
    );
    const r = buildReview(reviewInput(docs));
    expect(r.notes.some((n) => n.startsWith('100 field change(s) were not ranked'))).toBe(true);
  });

  it('cuts long strings so the review file accepts what it builds', () => {
    const long = 'p'.repeat(5_000);
    const r = buildReview(
      reviewInput([modified('k', { a: 1 }, { a: 2 }, { projection: long })], {
        notes: [long],
        expectations: {
          declared: true,
          violations: [{ projection: long, rule: long, message: long, key: 'k'.repeat(2_000) }],
        },
      }),
    );
    expect(r.rows[0]?.projection).toHaveLength(1_000);
    expect(r.notes[0]).toHaveLength(1_000);
    expect(r.expectations.violations[0]?.key).toHaveLength(1_024);
    expect(r.annotations[0]?.title.length).toBeLessThanOrEqual(255);
    expect(r.annotations[0]?.message.length).toBeLessThanOrEqual(1_000);
  });
});

describe('buildReview: conclusion', () => {
  const docs = () => [modified('k', { a: 1 }, { a: 2 })];
  it('failure when any expectation fails, whatever else', () => {
    const r = buildReview(
      reviewInput([], { expectations: { declared: true, violations: [violation('repos', 'count')] } }),
    );
    expect(r.conclusion).toBe('failure');
  });
  it('success when nothing would change, even with nothing declared', () => {
    const r = buildReview(reviewInput([]));
    expect([r.changed, r.conclusion]).toEqual([false, 'success']);
  });
  it('success when changes are checked by declared expectations that hold', () => {
    expect(buildReview(reviewInput(docs(), { expectations: { declared: true, violations: [] } })).conclusion).toBe(
      'success',
    );
  });
  it('neutral for changes nothing was declared to check', () => {
    expect(buildReview(reviewInput(docs())).conclusion).toBe('neutral');
  });
});

describe('buildReview: expectations and annotations', () => {
  it('counts every violation and keeps the first 50', () => {
    const violations = [...Array(120).keys()].map((i) => violation('repos', 'unique', `k${i}`));
    const r = buildReview(reviewInput([], { expectations: { declared: true, violations } }));
    expect(r.expectations.count).toBe(120);
    expect(r.expectations.violations).toHaveLength(50);
    expect(r.expectations.violations[0]?.key).toBe('k0');
  });

  it("takes the refusal's count when it lists only the first 50 (never fewer than listed)", () => {
    const violations = [...Array(50).keys()].map((i) => violation('repos', 'unique', `k${i}`));
    const refused = buildReview(reviewInput([], { expectations: { declared: true, violations, count: 4_000 } }));
    expect([refused.expectations.count, refused.conclusion]).toEqual([4_000, 'failure']);
    const under = buildReview(reviewInput([], { expectations: { declared: true, violations, count: 3 } }));
    expect(under.expectations.count).toBe(50);
  });

  it('one annotation per (projection, rule) on the projection line, counting violations and naming up to 5 keys', () => {
    const violations = [
      ...[...Array(7).keys()].map((i) => violation('repos', 'unique', `k${i}`)),
      violation('releases', 'count'),
      violation('repos', 'schema', 'k9'),
      violation('unknown', 'count'),
    ];
    const r = buildReview(reviewInput([], { expectations: { declared: true, violations } }));
    expect(r.annotations.map((a) => [a.title, a.start_line, a.end_line, a.path, a.annotation_level])).toEqual([
      ['docdb: unique failed in projection repos', 3, 3, 'docdb.yml', 'failure'],
      ['docdb: count failed in projection releases', 12, 12, 'docdb.yml', 'failure'],
      ['docdb: schema failed in projection repos', 3, 3, 'docdb.yml', 'failure'],
      ['docdb: count failed in projection unknown', 1, 1, 'docdb.yml', 'failure'],
    ]);
    expect(r.annotations[0]?.message).toBe(
      '7 violation(s) of unique in projection repos: k0, k1, k2, k3, k4 and 2 more. First: unique broken',
    );
  });

  it('at most 50 annotations', () => {
    const violations = [...Array(80).keys()].map((i) => violation(`p${i}`, 'count'));
    const r = buildReview(reviewInput([], { expectations: { declared: true, violations } }));
    expect(r.annotations).toHaveLength(50);
    expect(r.expectations.count).toBe(80);
  });
});

describe('buildReview: section, viewer and notes', () => {
  it('refuses a section that is not a section ref (the marker is made of it)', () => {
    expect(() => buildReview(reviewInput([], { section: 'refs/docdb/documents.previews/pr-1' }))).toThrow(
      expect.objectContaining({ code: 'InvalidConfig', data: expect.objectContaining({ field: 'section' }) }),
    );
  });

  it('omits a viewer address that is not http(s), with a note', () => {
    const r = buildReview(reviewInput([], { viewerUrl: 'javascript:alert(1)' }));
    expect(r.viewerUrl).toBeUndefined();
    expect(r.notes).toContain('viewer-url is not an http(s) address: the comment has no viewer link.');
  });

  it('keeps at most 20 notes, saying how many more there were', () => {
    const notes = [...Array(30).keys()].map((i) => `note ${i}`);
    const r = buildReview(reviewInput([], { notes }));
    expect(r.notes).toHaveLength(20);
    expect(r.notes[19]).toBe('11 more note(s) not shown.');
  });
});
