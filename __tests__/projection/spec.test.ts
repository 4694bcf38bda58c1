import { describe, expect, it } from 'vitest';
import { InvalidSpec } from '../../src/core/errors.js';
import { parseSpec } from '../../src/projection/spec/index.js';

function specError(text: string, opts = {}): InvalidSpec {
  try {
    parseSpec(text, 'docdb.yml', opts);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidSpec);
    return e as InvalidSpec;
  }
  throw new Error('expected the spec to be rejected');
}

describe('parseSpec: valid specs', () => {
  it('fills defaults for identity, reducer and prune', () => {
    const spec = parseSpec(
      `projections:
  repos:
    source: { type: repository, repositories: [octo/hello, octo/world] }
  issues:
    source:
      type: issues
      repositories: octo/hello
      labels: [bug]
    prune: true
`,
      'docdb.yml',
    );
    expect(spec.projections.map((p) => p.name)).toEqual(['repos', 'issues']);
    const [repos, issues] = spec.projections;
    expect(repos!.identity).toEqual({ namespace: 'github', type: 'repo', id: '{owner}/{name}' });
    expect(repos!.reducer).toEqual({ builtin: 'repository' });
    expect(repos!.source).toMatchObject({ repositories: ['octo/hello', 'octo/world'], api: 'graphql' });
    expect(repos!.prune).toBe(false);
    expect(repos!.line).toBe(2);
    expect(issues!.source).toEqual({ type: 'issues', repositories: ['octo/hello'], state: 'open', labels: ['bug'] });
    expect(issues!.identity).toEqual({ namespace: 'github', type: 'issue', id: '{repo}#{number}' });
    expect(issues!.prune).toBe(true);
  });

  it('accepts the source shorthand, defaults.repositories, custom modules and the default repository', () => {
    const spec = parseSpec(
      `version: 1
defaults:
  repositories: [octo/a]
projections:
  rel:
    source: releases
    identity: { namespace: gh, type: rel, id: "{repo}/{tag}" }
    reducer: { module: ./reducers/rel.js, export: summarize }
  prs:
    source: pulls
    reducer: raw
`,
      'docdb.yml',
    );
    expect(spec.projections[0]!.source).toEqual({
      type: 'releases',
      repositories: ['octo/a'],
      prereleases: true,
      drafts: true,
    });
    expect(spec.projections[0]!.reducer).toEqual({ module: './reducers/rel.js', export: 'summarize' });
    expect(spec.projections[1]!.reducer).toEqual({ builtin: 'raw' });
    const spec2 = parseSpec('projections:\n  me:\n    source: repository\n', 'x.yml', { defaultRepository: 'me/mine' });
    expect(spec2.projections[0]!.source).toMatchObject({ repositories: ['me/mine'] });
  });
});

describe('parseSpec: errors name file, line and field', () => {
  const cases: { name: string; text: string; line: number; field: string; message: RegExp }[] = [
    {
      name: 'unknown source type',
      text: 'projections:\n  repos:\n    source:\n      type: repositry\n      repositories: [o/r]\n',
      line: 4,
      field: 'projections.repos.source.type',
      message: /must be one of repository, issues, pulls, releases/,
    },
    {
      name: 'unknown source option',
      text: 'projections:\n  i:\n    source:\n      type: issues\n      repositories: [o/r]\n      stat: open\n',
      line: 6,
      field: 'projections.i.source.stat',
      message: /unknown field "stat"/,
    },
    {
      name: 'bad state value',
      text: 'projections:\n  i:\n    source:\n      type: issues\n      repositories: [o/r]\n      state: opened\n',
      line: 6,
      field: 'projections.i.source.state',
      message: /open, closed, all/,
    },
    {
      name: 'bad repository name',
      text: 'projections:\n  i:\n    source:\n      type: issues\n      repositories:\n        - o/r\n        - nope\n',
      line: 7,
      field: 'projections.i.source.repositories[1]',
      message: /owner\/name/,
    },
    {
      name: 'unknown template variable',
      text: 'projections:\n  i:\n    source: { type: issues, repositories: [o/r] }\n    identity:\n      id: "{repo}#{nmber}"\n',
      line: 5,
      field: 'projections.i.identity.id',
      message: /unknown template variable \{nmber\}.*\{number\}/,
    },
    {
      name: 'template variable of another source',
      text: 'projections:\n  r:\n    source: { type: repository, repositories: [o/r] }\n    identity: { id: "{repo}#{number}" }\n',
      line: 4,
      field: 'projections.r.identity.id',
      message: /\{number\}/,
    },
    {
      name: 'unclosed template',
      text: 'projections:\n  r:\n    source: { type: repository, repositories: [o/r] }\n    identity:\n      id: "{owner/{name}"\n',
      line: 5,
      field: 'projections.r.identity.id',
      message: /not a variable name|unclosed/,
    },
    {
      name: 'reducer for another source',
      text: 'projections:\n  r:\n    source: { type: repository, repositories: [o/r] }\n    reducer: issue\n',
      line: 4,
      field: 'projections.r.reducer',
      message: /cannot reduce a repository source/,
    },
    {
      name: 'unknown reducer',
      text: 'projections:\n  r:\n    source: { type: repository, repositories: [o/r] }\n    reducer: repo\n',
      line: 4,
      field: 'projections.r.reducer',
      message: /unknown built-in reducer "repo"/,
    },
    {
      name: 'reducer module with a bad extension',
      text: 'projections:\n  r:\n    source: { type: repository, repositories: [o/r] }\n    reducer:\n      module: ./r.py\n',
      line: 5,
      field: 'projections.r.reducer.module',
      message: /\.js/,
    },
    {
      name: 'missing source',
      text: 'projections:\n  r:\n    prune: true\n',
      line: 2,
      field: 'projections.r.source',
      message: /required/,
    },
    {
      name: 'prune must be boolean',
      text: 'projections:\n  r:\n    source: { type: repository, repositories: [o/r] }\n    prune: "yes"\n',
      line: 4,
      field: 'projections.r.prune',
      message: /true or false/,
    },
    {
      name: 'bad namespace',
      text: 'projections:\n  r:\n    source: { type: repository, repositories: [o/r] }\n    identity:\n      namespace: _docdb\n',
      line: 5,
      field: 'projections.r.identity.namespace',
      message: /one key segment/,
    },
    {
      name: 'bad projection name',
      text: 'projections:\n  "my repos":\n    source: { type: repository, repositories: [o/r] }\n',
      line: 2,
      field: 'projections.my repos',
      message: /must start with a letter/,
    },
    {
      name: 'unknown top-level field',
      text: 'projection:\n  r: {}\n',
      line: 1,
      field: 'projection',
      message: /unknown field "projection".*projections/,
    },
    {
      name: 'projections as a list',
      text: 'projections:\n  - name: r\n',
      line: 1,
      field: 'projections',
      message: /mapping of projection name/,
    },
    {
      name: 'no repositories anywhere',
      text: 'projections:\n  r:\n    source: repository\n',
      line: 3,
      field: 'projections.r.source',
      message: /needs "repositories"/,
    },
    {
      name: 'pruning projections sharing a scope',
      text: 'projections:\n  a:\n    source: { type: repository, repositories: [o/a] }\n    prune: true\n  b:\n    source: { type: repository, repositories: [o/b] }\n',
      line: 5,
      field: 'projections.b.identity',
      message: /prune: true and would delete/,
    },
    {
      name: 'YAML syntax error',
      text: 'projections:\n  r:\n    source: {type: issues\n',
      line: 4,
      field: '(yaml)',
      message: /./,
    },
    {
      name: 'duplicate projection name',
      text: 'projections:\n  r:\n    source: repository\n  r:\n    source: issues\n',
      line: 4,
      field: '(yaml)',
      message: /unique/i,
    },
    {
      name: 'constant id for many items',
      text: 'projections:\n  i:\n    source: { type: issues, repositories: [o/r] }\n    identity: { id: all }\n',
      line: 4,
      field: 'projections.i.identity.id',
      message: /at least one template variable/,
    },
    {
      name: 'bad since',
      text: 'projections:\n  i:\n    source: { type: issues, repositories: [o/r], since: yesterday }\n',
      line: 3,
      field: 'projections.i.source.since',
      message: /ISO-8601/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const e = specError(c.text);
      expect(e.data.file).toBe('docdb.yml');
      expect(e.data.field).toBe(c.field);
      expect(e.data.line).toBe(c.line);
      expect(e.message).toMatch(c.message);
      expect(e.message).toContain(`docdb.yml:${c.line}:`);
      expect(e.message).toContain(c.field);
    });
  }

  it('reports every problem at once', () => {
    const e = specError(
      'projections:\n  a:\n    source: { type: issues, repositories: [o/r], stat: x }\n  b:\n    source: { type: pulls, repositories: [bad] }\n',
    );
    const issues = e.data.issues as { field: string; line: number }[];
    expect(issues.map((i) => [i.field, i.line])).toEqual([
      ['projections.a.source.stat', 3],
      ['projections.b.source.repositories[0]', 5],
    ]);
    expect(e.message).toMatch(/2 problems/);
  });

  it('rejects an empty spec', () => {
    expect(specError('').data.field).toBe('projections');
    expect(specError('projections: {}\n').message).toMatch(/at least one projection/);
  });
});
