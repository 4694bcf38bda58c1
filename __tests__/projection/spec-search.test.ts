/**
 * `search:` on a projection (issue 42, the declaring side): the spec checks the fields by the library's
 * declaration rules, naming file, line and field; two projections of one type may not declare different
 * search fields; a run declares search in the SAME commit as the documents it writes, and declares nothing
 * again when it is already there.
 */
import { describe, expect, it } from 'vitest';
import { InvalidSpec } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { SEARCH_DECLARATION_KEY } from '../../src/document/search/index.js';
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

describe('search: in the spec', () => {
  it('is kept on the projection', () => {
    const spec = parseSpec(`${REPOS}    search: [data.name, data.description]\n`, 'docdb.yml');
    expect(spec.projections[0]?.search).toEqual(['data.name', 'data.description']);
    expect(parseSpec(REPOS, 'docdb.yml').projections[0]).not.toHaveProperty('search');
  });

  it.each([
    ['search: data.name', 'projections.repos.search', 4, /must be a list of fields to search/],
    ['search: [data.name, title]', 'projections.repos.search[1]', 4, /must be "id" or a dotted path into data/],
    ['search: []', 'projections.repos.search', 4, /at least one field/],
    ['search: [data.a, data.a]', 'projections.repos.search', 4, /lists a field twice/],
    ['searches: [data.a]', 'projections.repos.searches', 4, /unknown field "searches".*search/],
  ])('%s is refused naming file, line and field', (line, field, at, message) => {
    const e = specError(`${REPOS}    ${line}\n`);
    expect(e.data.field).toBe(field);
    expect(e.data.line).toBe(at);
    expect(e.message).toMatch(message);
  });

  it('two projections of one type declaring different fields are refused', () => {
    const e = specError(
      `${REPOS}    search: [data.name]\n  more:\n    source: { type: repository, api: rest, repositories: [octo/more] }\n    search: [data.description]\n`,
    );
    expect(e.data.field).toBe('projections.more.search');
    expect(e.message).toMatch(/"repos" and "more" both write github\/repo\/… with different search fields/);
  });
});

describe('search: in a run', () => {
  const world = () => fakeGitHub([fakeRepo('octo/hello'), fakeRepo('octo/world')]);

  it('lands in the same commit as the documents; a second run declares nothing again', async () => {
    const memory = new MemoryRefStore();
    const spec = parseSpec(`${REPOS}    search: [data.fullName, data.description]\n`, 'docdb.yml');
    const report = await runProjections({ spec, client: world().client, store: memory, apiUrl: API });
    const docs = new DocumentStore(memory);
    expect((await docs.searchDeclaration()).search).toEqual([
      { namespace: 'github', type: 'repo', fields: ['data.fullName', 'data.description'] },
    ]);
    expect((await memory.history(SEARCH_DECLARATION_KEY)).entries.map((e) => e.version)).toEqual([report.version]);
    const keys = (await memory.list({ version: report.version! })).entries.map((e) => e.key);
    expect(keys).toEqual(expect.arrayContaining(['github/repo/octo/hello.json', SEARCH_DECLARATION_KEY]));
    const found = await docs.search('hello', { namespace: 'github', type: 'repo' });
    expect(found.hits.map((h) => h.id)).toEqual(['octo/hello']);
    const again = await runProjections({ spec, client: world().client, store: memory, apiUrl: API });
    expect(again.changed).toBe(false);
    expect(await memory.head()).toBe(report.version);
  });
});
