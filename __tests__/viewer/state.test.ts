/**
 * Every view is a link (issue 29 item 9): any state the viewer can be in survives the trip through its URL —
 * `parseViewState(formatViewState(s))` gives `s` back with no problem — for generated states (fast-check),
 * free text included (filters, ids with slashes, spaces, `&`, `=`, `#`, non-ASCII).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESERVED_REF_SPACES } from '../../src/core/refname.js';
import { AGGREGATES, formatViewState, parseViewState, VIEWS, type ViewState } from '../../src/viewer/state.js';

const chars = (alphabet: string, min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const owner = fc.tuple(chars(ALNUM, 1, 1), chars(`${ALNUM}-`, 0, 12)).map(([a, b]) => a + b);
const name = chars(`${ALNUM}._-`, 1, 20).filter((n) => n !== '.' && n !== '..');
const segment = chars(`${ALNUM}._~-`, 1, 20).filter((n) => n !== '.' && n !== '..');
const sha = chars('0123456789abcdef', 40, 40);
/** Free text as a visitor types it (the URL must carry it exactly). */
const text = fc.string({ minLength: 1, maxLength: 30 }).filter((t) => t.trim() !== '' && t === t.trim());
/** A ref name segment: git refuses `~` (and `^`, `:`, spaces…) in ref names. */
const refSegment = chars(`${ALNUM}._-`, 1, 20).filter(
  (n) =>
    !n.startsWith('.') &&
    !n.endsWith('.') &&
    !n.endsWith('.lock') &&
    !n.includes('..') &&
    // a section's reserved spaces are refused (the test below)
    !RESERVED_REF_SPACES.some((r) => n.endsWith(r.suffix)),
);
const filePath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const ref = fc.oneof(
  refSegment.map((s) => `refs/docdb/${s}`),
  fc.array(refSegment, { minLength: 1, maxLength: 3 }).map((s) => `refs/heads/${s.join('/')}`),
);

const state: fc.Arbitrary<ViewState> = fc
  .record(
    {
      repo: fc.tuple(owner, name).map(([o, n]) => `${o}/${n}`),
      ref,
      view: fc.constantFrom(...VIEWS),
      at: sha,
      ns: segment,
      type: segment,
      id: text,
      path: filePath,
      q: text,
      where: fc.array(text, { maxLength: 3 }),
      sort: text,
      from: sha,
      to: sha,
      field: text,
      agg: fc.constantFrom(...AGGREGATES),
    },
    { requiredKeys: ['repo', 'ref', 'view', 'where'] },
  )
  // A view opens only with what it needs (the parser says so otherwise): generate states that have it.
  .filter(
    (s) =>
      (s.view !== 'table' && s.view !== 'chart' && s.view !== 'document') ||
      (s.ns !== undefined && s.type !== undefined && (s.view !== 'document' || s.id !== undefined)),
  )
  // Without `view`, a path means the file view: an overview with a path is not a state the page makes.
  .filter((s) => !(s.view === 'overview' && s.path !== undefined));

describe('viewer URL state', () => {
  it('round-trips every state through its query string', () => {
    fc.assert(
      fc.property(state, (s) => {
        const { state: back, problems } = parseViewState(`?${formatViewState(s)}`);
        expect(problems).toEqual([]);
        expect(back).toEqual(s);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses a ref or section in a section's reserved space, naming the parameter (issue 37 item 14)", () => {
    for (const { suffix } of RESERVED_REF_SPACES) {
      const byRef = parseViewState(`?repo=o/r&ref=refs/docdb/documents${suffix}/1`);
      expect(byRef.problems).toEqual([
        expect.objectContaining({
          param: 'ref',
          message: expect.stringContaining(`a component ending in "${suffix}"`),
        }),
      ]);
      expect(byRef.state?.ref).toBe('refs/docdb/documents'); // the default section opens instead
      const bySection = parseViewState(`?repo=o/r&section=documents${suffix}`);
      expect(bySection.problems).toEqual([expect.objectContaining({ param: 'section' })]);
    }
  });

  it('the default section and view stay out of the link', () => {
    expect(formatViewState({ repo: 'o/r', ref: 'refs/docdb/documents', view: 'overview', where: [] })).toBe(
      'repo=o%2Fr',
    );
  });
});

describe('quarantine= (docs/quarantine.md)', () => {
  it('opens a quarantined run only when named, keeps it in links, and refuses an id that is not one', () => {
    const { state, problems } = parseViewState('?repo=octo/data&quarantine=4711.1&view=diff');
    expect(problems).toEqual([]);
    expect(state).toMatchObject({ ref: 'refs/docdb/documents', quarantine: '4711.1', view: 'diff' });
    expect(formatViewState(state!)).toBe('repo=octo%2Fdata&quarantine=4711.1&view=diff');
    expect(parseViewState('?repo=octo/data').state).not.toHaveProperty('quarantine');
    for (const bad of ['../x', '4711.1/../../heads/main', 'x.lock', 'a b']) {
      const r = parseViewState(`?repo=octo/data&quarantine=${encodeURIComponent(bad)}`);
      expect(r.state).not.toHaveProperty('quarantine');
      expect(r.problems).toEqual([{ param: 'quarantine', message: expect.stringMatching(/must be a quarantine id/) }]);
    }
  });
});

describe('preview= (a pull request review preview, docs/action.md)', () => {
  it('opens pull request N’s preview only when named, keeps it in links, refuses what is not a PR number', () => {
    const { state, problems } = parseViewState('?repo=octo/data&preview=42&view=diff');
    expect(problems).toEqual([]);
    expect(state).toMatchObject({ ref: 'refs/docdb/documents', preview: 42, view: 'diff' });
    expect(formatViewState(state!)).toBe('repo=octo%2Fdata&preview=42&view=diff');
    expect(parseViewState('?repo=octo/data').state).not.toHaveProperty('preview');
    for (const bad of ['0', '-1', '1e3', '042', '4.2', 'pr-42', '../x', '99999999999']) {
      const r = parseViewState(`?repo=octo/data&preview=${encodeURIComponent(bad)}`);
      expect(r.state).not.toHaveProperty('preview');
      expect(r.problems).toEqual([
        { param: 'preview', message: expect.stringMatching(/must be a pull request number/) },
      ]);
    }
  });

  it('never together with quarantine= (each opens one ref beside the section)', () => {
    const r = parseViewState('?repo=octo/data&quarantine=4711.1&preview=42');
    expect(r.state).not.toHaveProperty('preview');
    expect(r.problems).toEqual([{ param: 'preview', message: expect.stringMatching(/give one of them/) }]);
  });
});
