/**
 * The three renderings at the cut-offs: 20,000 changed documents (realistic, and with the longest strings
 * the review keeps, full of Markdown), each within GitHub's limit with a "N more" note — measured in UTF-8
 * bytes, which are never fewer than characters.
 */
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import {
  buildReview,
  type Review,
  type ReviewDocument,
  renderCheckRun,
  renderComment,
  renderJobSummary,
  reviewMarker,
} from '../../src/review/index.js';
import { commentWithin } from '../../src/review/render-comment.js';
import { parseViewState } from '../../src/viewer/state.js';
import { BASE, HEAD, PREVIEW, repoDocuments, reviewInput } from './sample.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const html = (md: string) => marked.parse(md, { gfm: true, async: false }) as string;
const ATTACK = '|<script>alert(1)</script> @org/team ](http://evil) `x` -->\n#1 ';

/** 20,000 documents of 1,500 types, keys of 1,000 characters full of Markdown. */
function* hostileDocuments(n: number): Generator<ReviewDocument> {
  for (let i = 0; i < n; i++) {
    const key = `${String(i).padStart(6, '0')}${ATTACK.repeat(20)}`.slice(0, 1_000);
    const data = (v: number) => ({ [`f${i % 40}${ATTACK}`]: v, big: ATTACK.repeat(10) + v });
    yield {
      key,
      namespace: `ns${ATTACK}`,
      type: `t${i % 1_500}`,
      id: key,
      change: 'modified',
      projection: `p${ATTACK}`,
      before: data(i),
      after: data(i + 1),
    };
  }
}

function hostileReview(): Review {
  const violations = [...Array(300).keys()].map((i) => ({
    projection: `p${i % 60}${ATTACK}`,
    rule: `unique${ATTACK}`,
    key: `k${i}${ATTACK.repeat(30)}`,
    message: ATTACK.repeat(30),
  }));
  return buildReview(
    reviewInput(hostileDocuments(20_000), {
      expectations: { declared: true, violations },
      notes: [...Array(25).keys()].map(() => ATTACK.repeat(40)),
    }),
  );
}

describe('at 20,000 documents', () => {
  const plain = buildReview(reviewInput(repoDocuments(20_000)));
  const hostile = hostileReview();

  it('the comment stays within 60,000 characters and points at the rest', () => {
    for (const review of [plain, hostile]) {
      const body = renderComment(review);
      expect(body.startsWith(`${reviewMarker('refs/docdb/documents')}\n`)).toBe(true);
      expect(body.length).toBeLessThanOrEqual(60_000);
      expect(bytes(body)).toBeLessThanOrEqual(60_000);
    }
    const body = renderComment(hostile);
    // Full, not just small: the limit is what cut it.
    expect(bytes(body)).toBeGreaterThan(55_000);
    expect(body).toMatch(/… and [\d,]+ more type\(s\) in the check run \/ job summary\./);
    // The tail survives the cut: preview, viewer link and footer.
    expect(body).toContain('[Open the change in the viewer](');
    expect(body.trimEnd().endsWith('updated on every push.</sub>')).toBe(true);
  });

  it('the check-run summary stays within 65,535 characters, listing documents until the room is used', () => {
    for (const review of [plain, hostile]) {
      const summary = renderCheckRun(review).summary;
      expect(bytes(summary)).toBeLessThanOrEqual(65_535);
      expect(summary).toMatch(/… and [\d,]+ more document\(s\) in the job summary\./);
    }
    // Realistic documents fill most of it: the cut is not wasteful.
    expect(bytes(renderCheckRun(plain).summary)).toBeGreaterThan(50_000);
  });

  it('the job summary stays under 1,000,000 bytes; the review keeps 5,000 rows and says so', () => {
    const plainSummary = renderJobSummary(plain);
    expect(bytes(plainSummary)).toBeLessThanOrEqual(1_000_000);
    expect(plainSummary).toContain(
      '… and 15,000 more document(s), not listed: the review keeps the first 5,000 in key order.',
    );
    const hostileSummary = renderJobSummary(hostile);
    expect(bytes(hostileSummary)).toBeLessThanOrEqual(1_000_000);
    expect(bytes(hostileSummary)).toBeGreaterThan(900_000);
    expect(hostileSummary).toMatch(
      /… and [\d,]+ more document\(s\), not listed: the job summary stays under GitHub’s 1 MiB\./,
    );
  });

  it('a smaller budget is kept as well (every part is budgeted, none only by luck)', () => {
    for (const max of [3_000, 8_000, 20_000]) expect(bytes(commentWithin(hostile, max))).toBeLessThanOrEqual(max);
  });
});

describe('renderComment', () => {
  it('holds the totals, expectation result, field changes before → after, preview and notes', () => {
    const review = buildReview(
      reviewInput(repoDocuments(100), {
        expectations: { declared: true, violations: [] },
        notes: ['contents: write is missing: no preview'],
      }),
    );
    const body = renderComment(review);
    expect(body).toContain(
      '### docdb: 100 document(s) would change in <code>refs/docdb/documents</code> (pull request 42)',
    );
    expect(body).toContain('| <code>github/repo</code> | 10 | 88 | 2 |');
    expect(body).toContain('**Expectations: all hold.**');
    expect(body).toContain(
      '| <code>github/repo</code> | <code>data.stars</code> | 88 | <code>github/repo/repo-00002.json</code> | <code>2</code> → <code>3</code> |',
    );
    expect(body).toContain(
      `Preview: version <code>${PREVIEW}</code> on <code>refs/docdb/documents.previews/pr-42</code>.`,
    );
    expect(body).toContain('- contents&#58; write is missing&#58; no preview');
  });

  it('links the viewer diff from the base to the preview, and the viewer reads that link', () => {
    const body = renderComment(buildReview(reviewInput(repoDocuments(3))));
    const link = /\[Open the change in the viewer\]\(([^)]+)\)/.exec(body)?.[1] as string;
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe('https://octo-org.github.io/data/');
    const { state, problems } = parseViewState(url.search);
    expect(problems).toEqual([]);
    expect(state).toMatchObject({
      repo: 'octo-org/data',
      ref: 'refs/docdb/documents',
      view: 'diff',
      from: BASE,
      to: PREVIEW,
    });
  });

  it('no link without a preview, without a base, or to a viewer that is not http(s) (even in a forged review)', () => {
    const review = buildReview(reviewInput(repoDocuments(3)));
    const noLink = (r: Review) => expect(renderComment(r)).not.toContain('Open the change in the viewer');
    noLink({ ...review, preview: null });
    noLink({ ...review, base: null });
    noLink({ ...review, viewerUrl: 'javascript:alert(1)//https://x' });
    noLink({ ...review, viewerUrl: 'data:text/html,<script>alert(1)</script>' });
    noLink({ ...review, viewerUrl: undefined });
  });

  it('a viewer address with Markdown in it stays one link to that address', () => {
    const review = buildReview(reviewInput(repoDocuments(3), { viewerUrl: 'https://v.example/a b)[x](http://evil)' }));
    const out = html(renderComment(review));
    const hrefs = [...out.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1] as string);
    expect(hrefs).toHaveLength(1);
    expect(new URL(hrefs[0] as string).host).toBe('v.example');
  });

  it('is the same text for the same change, in whatever order the documents come (a re-run writes nothing)', () => {
    const docs = [...repoDocuments(7_000)];
    const a = renderComment(buildReview(reviewInput(docs)));
    const b = renderComment(buildReview(reviewInput([...docs].reverse())));
    expect(b).toBe(a);
    expect(renderCheckRun(buildReview(reviewInput([...docs].reverse())))).toEqual(
      renderCheckRun(buildReview(reviewInput(docs))),
    );
  });

  it('says nothing would change when nothing would', () => {
    const body = renderComment(buildReview(reviewInput([])));
    expect(body).toContain('### docdb: nothing would change in <code>refs/docdb/documents</code>');
    expect(body).toContain('Nothing would change: the projections produce exactly the documents the section holds.');
    expect(body).not.toContain('| Type |');
  });

  it('every string from the review is inert: no element, link or mention from the data', () => {
    const review = buildReview(
      reviewInput(hostileDocuments(30), {
        viewerUrl: undefined,
        notes: [ATTACK],
        expectations: {
          declared: true,
          violations: [{ projection: ATTACK, rule: ATTACK, key: ATTACK, message: ATTACK }],
        },
      }),
    );
    const out = html(renderComment(review));
    expect(out).not.toMatch(/<(script|a|img|em|del|details)\b/);
    // The one bold sentence is the comment's own.
    expect(out.match(/<strong>/g)).toEqual(['<strong>']);
    const text = out.replace(/<[^>]*>/g, '').replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d)));
    expect(text).not.toMatch(/@[A-Za-z0-9]/);
    expect(text).not.toMatch(/#\d/);
    // Every table row still has the cells of its header.
    for (const table of out.match(/<table>[\s\S]*?<\/table>/g) ?? []) {
      const cells = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => (m[1]?.match(/<t[hd][ >]/g) ?? []).length);
      expect(new Set(cells).size).toBe(1);
    }
  });
});

describe('renderCheckRun', () => {
  it('is named after the section without refs/<root>/, with the review conclusion and a title', () => {
    const check = renderCheckRun(buildReview(reviewInput(repoDocuments(10))));
    expect(check.name).toBe('docdb: documents');
    expect(check.conclusion).toBe('neutral');
    expect(check.title).toBe('10 document(s) would change (no expectations declared)');
    expect(check.summary).toContain('| Type | Added | Modified | Removed |');
    const nested = renderCheckRun(buildReview(reviewInput([], { section: 'refs/docdb/weather/daily', preview: null })));
    expect([nested.name, nested.title, nested.conclusion]).toEqual([
      'docdb: weather/daily',
      'Nothing would change',
      'success',
    ]);
  });

  it('a failing review: failure, the violations in the summary and the annotations', () => {
    const violations = [{ projection: 'repos', rule: 'max-removed', message: 'removes 12 (at most 5)' }];
    const check = renderCheckRun(
      buildReview(reviewInput(repoDocuments(10), { expectations: { declared: true, violations } })),
    );
    expect(check.conclusion).toBe('failure');
    expect(check.title).toBe('1 expectation violation(s); 10 document(s) would change');
    expect(check.summary).toContain('| repos | max-removed |  | removes 12 &#40;at most 5&#41; |');
    expect(check.annotations).toEqual([
      expect.objectContaining({ path: 'docdb.yml', start_line: 3, annotation_level: 'failure' }),
    ]);
  });

  it('sends at most 50 annotations, even from a review that holds more', () => {
    const review = buildReview(reviewInput([]));
    const annotation = review.annotations[0] ?? {
      path: 'docdb.yml',
      start_line: 1,
      end_line: 1,
      annotation_level: 'failure' as const,
      title: 't',
      message: 'm',
    };
    const check = renderCheckRun({ ...review, annotations: Array(70).fill(annotation) });
    expect(check.annotations).toHaveLength(50);
  });

  it('the head commit and the base are named in the footer', () => {
    const summary = renderCheckRun(buildReview(reviewInput(repoDocuments(2)))).summary;
    expect(summary).toContain(
      `head <code>${HEAD.slice(0, 12)}</code> against section tip <code>${BASE.slice(0, 12)}</code>`,
    );
  });
});
