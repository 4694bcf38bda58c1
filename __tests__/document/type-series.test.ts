/**
 * `typeSeries` (issue 29 item 6): a type's count, and the sum and mean of an indexed field, at each section
 * version — equal to what the library's query answers at that version — read from the index in a few
 * GraphQL requests (each distinct index part once), and gaps where no index answers.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { typeSeries } from '../../src/document/type-series.js';
import { emulatorPerFile, OWNER, since, store } from '../remote-api/helpers.js';
import { mirrorSteps, seriesByQuery, typeSteps } from './series-section.js';

const fx = emulatorPerFile();
const Q = { namespace: 'github', type: 'repo' } as const;

describe('typeSeries', () => {
  it('count, sum and mean at 12 versions equal the query at each version; a version before the index is a gap', async () => {
    const versions = (await mirrorSteps(fx.em, `${OWNER}/${fx.repo}`, typeSteps(12))).reverse();
    const s = store(fx.em, fx.repo);
    await s.commits({ limit: 100 });
    const expected = await seriesByQuery(new DocumentStore(store(fx.em, fx.repo)), versions);
    const count = await typeSeries(s, { ...Q, aggregate: 'count' }, versions);
    expect(count.points.map((p) => p.value)).toEqual(expected.map((e) => e.count));
    expect(count.points.at(-1)).toMatchObject({ value: null, gap: 'no-index' });
    const withField = await typeSeries(s, { ...Q, aggregate: 'count', field: 'data.stars' }, versions.slice(0, 1));
    expect(withField.points[0]?.parts).toBe(1); // what an anonymous sum would read at that version
    const mark = fx.em.requests.length;
    const sum = await typeSeries(s, { ...Q, aggregate: 'sum', field: 'data.stars' }, versions);
    expect(sum.points.map((p) => p.value)).toEqual(expected.map((e) => e.sum));
    // The manifests are cached from the count; the parts' SHAs in one query, the distinct parts in one more.
    expect(since(fx.em, mark).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /graphql', 'POST /graphql']);
    expect(sum.requests).toBe(2);
    const mean = await typeSeries(s, { ...Q, aggregate: 'mean', field: 'data.stars' }, versions);
    expect(mean.points.map((p) => p.value)).toEqual(expected.map((e) => e.mean));
    expect(mean.points[0]?.numbers).toBeLessThan(mean.points[0]?.documents ?? 0); // "many" and [1, 2] are not numbers
    // min and max over the same numbers (issue 40 item 1: the chart form offers them); [1, 2] is not a number.
    const min = await typeSeries(s, { ...Q, aggregate: 'min', field: 'data.stars' }, versions);
    expect(min.points.map((p) => p.value)).toEqual(expected.map((e) => e.min));
    const max = await typeSeries(s, { ...Q, aggregate: 'max', field: 'data.stars' }, versions);
    expect(max.points.map((p) => p.value)).toEqual(expected.map((e) => e.max));
    expect(new Set(max.points.map((p) => p.value)).size).toBeGreaterThan(2); // the max moves between versions
  });

  it('a field the index lacks is a gap at every version; bad queries are InvalidConfig naming the field', async () => {
    const versions = await mirrorSteps(fx.em, `${OWNER}/${fx.repo}`, typeSteps(4));
    const s = store(fx.em, fx.repo);
    const r = await typeSeries(s, { ...Q, aggregate: 'sum', field: 'data.forks' }, versions.slice(1));
    expect(r.points.map((p) => p.gap)).toEqual(['field-not-indexed', 'field-not-indexed', 'field-not-indexed']);
    const noField = await typeSeries(s, { ...Q, aggregate: 'mean' }, versions).catch((e: unknown) => e);
    expect(noField).toBeInstanceOf(InvalidConfig);
    expect((noField as InvalidConfig).data.field).toBe('field');
    const badAgg = await typeSeries(s, { ...Q, aggregate: 'median' as 'sum', field: 'data.stars' }, versions).catch(
      (e: unknown) => e,
    );
    expect((badAgg as Error).message).toContain('aggregate must be one of count, sum, mean, min, max');
  });

  it('a listed part that is missing at a version is InvalidResponse naming the key, not a wrong sum', async () => {
    const versions = await mirrorSteps(fx.em, `${OWNER}/${fx.repo}`, typeSteps(4));
    const damaged = fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, {
      branch: 'refs/docdb/documents',
      files: { '_docdb/index/github/repo/data.stars/0.jsonl': null },
    });
    const s = store(fx.em, fx.repo);
    const e = await typeSeries(s, { ...Q, aggregate: 'sum', field: 'data.stars' }, [
      damaged,
      ...versions.slice(1),
    ]).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(InvalidResponse);
    expect((e as InvalidResponse).message).toContain('_docdb/index/github/repo/data.stars/');
  });
});
