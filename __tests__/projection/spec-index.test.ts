/**
 * `index:` on a projection (issue 28 item 1, the declaring side): the spec checks the fields by the
 * library's declaration rules, naming file, line and field; two projections of one type may not declare
 * different indexes; a run declares the index in the SAME commit as the documents it writes, declares it on
 * a run that changes no document, and declares nothing again when it is already there.
 */
import { describe, expect, it } from 'vitest';
import { InvalidSpec } from '../../src/core/errors.js';
import type { Change, RefStore, WriteResult } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { runProjections } from '../../src/projection/run/index.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { API, fakeGitHub, fakeRepo } from './fake-github.js';

function specError(text: string): InvalidSpec {
  try {
    parseSpec(text, 'docdb.yml');
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidSpec);
    return e as InvalidSpec;
  }
  throw new Error('expected the spec to be rejected');
}

const REPOS =
  'projections:\n  repos:\n    source: { type: repository, api: rest, repositories: [octo/hello, octo/world] }\n';

describe('index: in the spec', () => {
  it('is kept on the projection', () => {
    const spec = parseSpec(`${REPOS}    index: [data.language, data.stargazers_count]\n`, 'docdb.yml');
    expect(spec.projections[0]?.index).toEqual(['data.language', 'data.stargazers_count']);
    expect(parseSpec(REPOS, 'docdb.yml').projections[0]).not.toHaveProperty('index');
  });

  it.each([
    ['index: data.language', 'projections.repos.index', 4, /must be a list of fields to index/],
    ['index: [data.language, stars]', 'projections.repos.index[1]', 4, /must be "id" or a dotted path into data/],
    ['index: []', 'projections.repos.index', 4, /at least one field/],
    ['index: [data.a, data.a]', 'projections.repos.index', 4, /lists a field twice/],
    ['indexes: [data.a]', 'projections.repos.indexes', 4, /unknown field "indexes".*index/],
  ])('%s is refused naming file, line and field', (line, field, at, message) => {
    const e = specError(`${REPOS}    ${line}\n`);
    expect(e.data.field).toBe(field);
    expect(e.data.line).toBe(at);
    expect(e.message).toMatch(message);
  });

  it('two projections of one type declaring different fields are refused', () => {
    const e = specError(
      `${REPOS}    index: [data.language]\n  more:\n    source: { type: repository, api: rest, repositories: [octo/more] }\n    index: [data.name]\n`,
    );
    expect(e.data.field).toBe('projections.more.index');
    expect(e.message).toMatch(/"repos" and "more" both write github\/repo\/… with different index fields/);
  });
});

/** Counts commits made through the store, and keeps each one's changed keys. */
function counting(store: MemoryRefStore) {
  const commits: string[][] = [];
  const wrapped: RefStore = Object.create(store);
  wrapped.commit = async (changes: readonly Change[], options): Promise<WriteResult> => {
    commits.push(changes.map((c) => c.key));
    return store.commit(changes, options);
  };
  return { store: wrapped, commits };
}

describe('index: in a run', () => {
  const world = () => fakeGitHub([fakeRepo('octo/hello'), fakeRepo('octo/world')]);
  const INDEX = { namespace: 'github', type: 'repo', fields: ['data.default_branch'] };

  it('lands in the same commit as the documents; a second run declares nothing again', async () => {
    const memory = new MemoryRefStore();
    const { store, commits } = counting(memory);
    const spec = parseSpec(`${REPOS}    index: [data.default_branch]\n`, 'docdb.yml');
    const report = await runProjections({ spec, client: world().client, store, apiUrl: API });
    expect(commits).toHaveLength(1);
    const docs = new DocumentStore(memory);
    expect((await docs.indexes({ version: report.version! })).indexes).toEqual([INDEX]);
    // One commit holds the documents, the declaration and the index (derived with the write, not a second commit).
    const keys = (await memory.list({ version: report.version! })).entries.map((e) => e.key);
    expect(keys).toEqual(expect.arrayContaining(['github/repo/octo/hello.json', '_docdb/indexes.json']));
    expect(keys.some((k) => k.startsWith('_docdb/index/github/repo/'))).toBe(true);
    expect((await memory.history('_docdb/indexes.json')).entries.map((e) => e.version)).toEqual([report.version]);
    const found = await docs.query({
      namespace: 'github',
      type: 'repo',
      requireIndex: true,
      fields: ['data.default_branch'],
    });
    expect(found.answeredBy).toBe('index');
    expect(found.rows.map((r) => r.id)).toEqual(['octo/hello', 'octo/world']);
    const again = await runProjections({ spec, client: world().client, store, apiUrl: API });
    expect(again.changed).toBe(false);
    expect(await memory.head()).toBe(report.version);
  });

  it('a run that changes no document still declares a new index', async () => {
    const memory = new MemoryRefStore();
    await runProjections({ spec: parseSpec(REPOS, 'docdb.yml'), client: world().client, store: memory, apiUrl: API });
    const spec = parseSpec(`${REPOS}    index: [data.default_branch]\n`, 'docdb.yml');
    const report = await runProjections({ spec, client: world().client, store: memory, apiUrl: API });
    expect(report.changed).toBe(true);
    expect((await new DocumentStore(memory).indexes()).indexes).toEqual([INDEX]);
  });
});
