/** Review inputs for the review tests and the screenshot script: generated documents, as `mode: review` streams them. */
import type { ReviewDocument, ReviewInput } from '../../src/review/index.js';

export const HEAD = 'a1b2c3d4e5f60718293a4b5c6d7e8f9001122334';
export const BASE = 'b'.repeat(40);
export const PREVIEW = 'c'.repeat(40);

/**
 * `n` changed repository documents with ~1 KB of data each: every tenth added, every 50th removed, the
 * rest modified (stars always, the owner's login in a third, the topics array in a fifth).
 */
export function* repoDocuments(n: number, opts: { keyPad?: string } = {}): Generator<ReviewDocument> {
  for (let i = 0; i < n; i++) {
    const id = `${opts.keyPad ?? ''}repo-${String(i).padStart(5, '0')}`;
    const change = i % 10 === 0 ? 'added' : i % 50 === 1 ? 'removed' : 'modified';
    const before = { stars: i, owner: { login: 'octo' }, topics: ['data'], readme: 'x'.repeat(900) };
    const after = {
      ...before,
      stars: i + 1,
      owner: { login: i % 3 === 0 ? 'octo-cat' : 'octo' },
      topics: i % 5 === 0 ? ['data', 'git'] : ['data'],
    };
    yield {
      key: `github/repo/${id}.json`,
      namespace: 'github',
      type: 'repo',
      id,
      change,
      projection: 'repos',
      before: change === 'added' ? undefined : before,
      after: change === 'removed' ? undefined : after,
    };
  }
}

/** A review input for the `documents` given, with a preview and a viewer. */
export function reviewInput(documents: Iterable<ReviewDocument>, over: Partial<ReviewInput> = {}): ReviewInput {
  return {
    section: 'refs/docdb/documents',
    repository: 'octo-org/data',
    pullRequest: 42,
    headSha: HEAD,
    base: BASE,
    preview: { ref: 'refs/docdb/documents.previews/pr-42', version: PREVIEW },
    viewerUrl: 'https://octo-org.github.io/data/',
    specFile: './docdb.yml',
    projections: [
      { name: 'repos', line: 3 },
      { name: 'releases', line: 12 },
    ],
    expectations: { declared: false, violations: [] },
    documents,
    notes: [],
    ...over,
  };
}

/** A modified document of `namespace/type` with `before` → `after` data. */
export function modified(
  key: string,
  before: unknown,
  after: unknown,
  over: Partial<ReviewDocument> = {},
): ReviewDocument {
  return {
    key,
    namespace: 'github',
    type: 'repo',
    id: key,
    change: 'modified',
    projection: 'repos',
    before,
    after,
    ...over,
  };
}
