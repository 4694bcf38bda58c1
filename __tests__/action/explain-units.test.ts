import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotations } from '../../src/action/annotations.js';
import { describeFailure, tidy } from '../../src/action/failure.js';
import { readInputs } from '../../src/action/inputs.js';
import { meteredFetch } from '../../src/action/metered-fetch.js';
import { checkRunnerFiles } from '../../src/action/runner-files.js';
import { code, mdText, renderSummary } from '../../src/action/summary.js';
import {
  ALL_ERRORS,
  ConcurrentUpdate,
  DocDbError,
  EmptyRepository,
  InvalidConfig,
  InvalidSpec,
} from '../../src/core/errors.js';
import type { Change, RefStore } from '../../src/core/refstore.js';
import type { RunReport } from '../../src/projection/run/index.js';
import { runProjections } from '../../src/projection/run/index.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { API, fakeGitHub, fakeRepo } from '../projection/fake-github.js';
import { tempDir } from '../temp-dir.js';

const INPUTS = { repository: 'o/r', root: 'docdb', section: 'documents', mode: 'project' as const };

/** Every error class, built with a message that already ends in a period (the usual source of ".."). */
function everyError(): DocDbError[] {
  return ALL_ERRORS.map((E) => {
    if (E === ConcurrentUpdate) return new ConcurrentUpdate('refs/docdb/documents', 'a'.repeat(40), 6);
    if (E === InvalidConfig) return new InvalidConfig('field', 'input "x": bad value.');
    const Ctor = E as unknown as new (m: string, d: Record<string, unknown>) => DocDbError;
    try {
      return new Ctor(`${E.name}: something happened.`, {});
    } catch {
      return new DocDbError(`${E.name}: something happened.`);
    }
  });
}

describe('failure messages', () => {
  it('no message ends a sentence with a double period; none names a library option', () => {
    const seen: string[] = [];
    for (const mode of ['project', 'read'] as const) {
      for (const e of everyError()) {
        for (const data of [{}, { operation: 'projection source' }, { reason: 'timeout' }]) {
          Object.assign(e.data, data);
          seen.push(describeFailure(e, { ...INPUTS, mode }));
        }
      }
    }
    expect(seen.length).toBeGreaterThan(ALL_ERRORS.length * 3);
    for (const m of seen) {
      expect(m).not.toMatch(/(?<!\.)\.\.(\s|$)/);
      expect(m).not.toMatch(/retryConcurrentWrites|allowInsecureHttp|reducerTimeoutMs/);
    }
    expect(tidy('done.. next')).toBe('done. next');
    expect(tidy('wait...')).toBe('wait...');
  });

  it('the lost-race hint names "retry-concurrent-writes"; the empty-repository hint is said once', () => {
    const lost = describeFailure(new ConcurrentUpdate('refs/docdb/documents', 'b'.repeat(40), 6), INPUTS);
    expect(lost).toMatch(/raise the "retry-concurrent-writes" input/);
    expect(lost).toMatch(/this run gave up \(6 attempt\(s\)\)/);
    const empty = describeFailure(
      new EmptyRepository(
        'create tree: 409 Git Repository is empty. Repository o/r has no commits (push an initial commit).',
      ),
      INPUTS,
    );
    expect(empty.match(/push/gi)).toHaveLength(1);
    const slow = describeFailure(
      new InvalidSpec(
        'd.yml:7: projections.t.reducer (projection "t") did not return within 30 s on k and was stopped; make it faster or raise the reducer time limit',
        { reason: 'timeout', file: 'd.yml', line: 7 },
      ),
      INPUTS,
    );
    expect(slow).toBe(
      'd.yml:7: projections.t.reducer (projection "t") did not return within 30 s on k and was stopped.\nEach call of a custom reducer must return within the "reducer-timeout" input (seconds); raise it if the reducer is just slow.',
    );
  });

  it('spec problems become one annotation each, relative to the workspace', () => {
    let err: InvalidSpec | undefined;
    try {
      parseSpec(
        'projections:\n  a:\n    source: { type: nope }\n  b:\n    source: { type: issues }\n    prune: 3\n',
        '/ws/.github/docdb.yml',
      );
    } catch (e) {
      err = e as InvalidSpec;
    }
    const marks = annotations(err, err!.message, '/ws');
    expect(marks.map((m) => [m.properties.file, m.properties.startLine])).toEqual([
      ['.github/docdb.yml', 3],
      ['.github/docdb.yml', 6],
    ]);
    expect(marks[0]!.properties.title).toBe('docdb: invalid projection spec');
    const single = new InvalidSpec('x', { file: './cfg/d.yml', line: 4, field: 'f' });
    expect(annotations(single, 'full text', '/ws')).toEqual([
      {
        message: 'full text',
        properties: { title: 'docdb: invalid projection spec', file: 'cfg/d.yml', startLine: 4 },
      },
    ]);
    expect(annotations(new InvalidSpec('no line', { file: 'd.yml', line: 0 }), 'm', '/ws')).toEqual([]);
    expect(annotations(new Error('plain'), 'm', '/ws')).toEqual([]);
  });
});

describe('inputs', () => {
  const env = { GITHUB_REPOSITORY: 'o/r' };
  const reader = (v: Record<string, string>) => (n: string) => v[n] ?? '';
  it('reducer-timeout: seconds from 1 to 3600, default 30', () => {
    expect(readInputs(reader({}), env).reducerTimeout).toBe(30);
    expect(readInputs(reader({ 'reducer-timeout': '5' }), env).reducerTimeout).toBe(5);
    for (const bad of ['0', '3601', '1.5', 'soon']) {
      expect(() => readInputs(reader({ 'reducer-timeout': bad }), env)).toThrow(/input "reducer-timeout"/);
    }
  });
  it('api-url: plain http only to loopback, said in terms of the input', () => {
    expect(() => readInputs(reader({ 'api-url': 'http://ghe.example.com/api/v3' }), env)).toThrow(
      /^input "api-url": .* uses plain http to a remote host/,
    );
    expect(readInputs(reader({ 'api-url': 'http://127.0.0.1:3000' }), env).apiUrl).toBe('http://127.0.0.1:3000');
  });
});

describe('runner files', () => {
  it('fails when GITHUB_OUTPUT or GITHUB_STEP_SUMMARY cannot be appended to', async () => {
    const dir = tempDir('docdb-files-');
    await expect(checkRunnerFiles({ GITHUB_OUTPUT: join(dir, 'out') })).resolves.toBeUndefined();
    await expect(checkRunnerFiles({ GITHUB_OUTPUT: join(dir, 'no', 'out') })).rejects.toThrow(
      /GITHUB_OUTPUT \(.*\) cannot be written \(ENOENT\)/,
    );
    await expect(checkRunnerFiles({ GITHUB_STEP_SUMMARY: dir })).rejects.toThrow(/GITHUB_STEP_SUMMARY .*EISDIR/);
    await expect(checkRunnerFiles({})).resolves.toBeUndefined();
  });
});

describe('job summary', () => {
  const report = (keys: string[], name = 'rel'): RunReport => ({
    mode: 'project',
    ref: 'refs/docdb/documents',
    projections: [
      {
        name,
        source: 'releases',
        repositories: [],
        incremental: false,
        items: keys.length,
        skipped: 0,
        skips: [],
        notModified: 0,
        added: keys,
        changed: [],
        removed: [],
        unchanged: 0,
      },
    ],
    changed: true,
    version: 'c'.repeat(40),
    previousVersion: null,
    written: keys,
    deleted: [],
    unchanged: 0,
    keys,
  });

  it('source text cannot open HTML, close the code span or the details block, or split a table cell', () => {
    const evil = 'github/release/o/r@v1`</details><img src=x onerror=alert(1)>|*b*[l](u).json';
    const md = renderSummary({ report: report([evil], 'a|b'), repository: 'o/r', serverUrl: 'https://g', requests: 3 });
    expect(md).not.toMatch(/<img|`<\/details>|\|\*b\*/);
    expect(md.match(/<\/details>/g)).toHaveLength(1);
    expect(md.match(/<details>/g)).toHaveLength(1);
    expect(md).toContain('| a&#124;b | releases |');
    expect(mdText('<`>')).toBe('&#60;&#96;&#62;');
    expect(code('a_b')).toBe('<code>a&#95;b</code>');
  });

  it('bidirectional controls in source text are shown as \\uXXXX, never rendered (issue 18 §8)', () => {
    const evil = 'github/release/o/r@v1\u202Eexe.txt\u2066\u200F.json';
    const md = renderSummary({
      report: report([evil], 'p\u202Eq'),
      repository: 'o/r',
      serverUrl: 'https://g',
      requests: 3,
    });
    expect(md).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
    expect(md).toContain('v1&#92;u202Eexe.txt&#92;u2066&#92;u200F.json');
    expect(md).toContain('| p&#92;u202Eq |');
  });

  it('says whether the commit is verified', () => {
    const base = { report: report(['k']), repository: 'o/r', serverUrl: 'https://g', requests: 3 };
    expect(renderSummary({ ...base, verification: { verified: true, reason: 'valid' } })).toContain(
      'verified (signed by GitHub)',
    );
    expect(renderSummary({ ...base, verification: { verified: false, reason: 'unsigned' } })).toContain(
      'not verified (unsigned)',
    );
  });
});

describe('request meter', () => {
  it('logs one debug line per request and keeps the create-commit verification', async () => {
    const lines: string[] = [];
    const inner: typeof fetch = async (input, init) => {
      const url = String(input);
      if (init?.method === 'POST' && url.endsWith('/git/commits')) {
        return new Response(
          JSON.stringify({ sha: 'd'.repeat(40), verification: { verified: true, reason: 'valid' } }),
          {
            status: 201,
          },
        );
      }
      return new Response('{}', { status: 404 });
    };
    const { fetch: f, meter } = meteredFetch(inner, (l) => lines.push(l));
    await f('https://api.example/repos/o/r/git/ref/docdb/x', { method: 'GET' });
    const res = await f('https://api.example/repos/o/r/git/commits', { method: 'POST', body: '{}' });
    expect(((await res.json()) as { sha: string }).sha).toBe('d'.repeat(40)); // the body is still readable
    expect(lines).toEqual([
      'GET https://api.example/repos/o/r/git/ref/docdb/x → 404',
      'POST https://api.example/repos/o/r/git/commits → 201',
    ]);
    expect(meter.requests).toBe(2);
    expect(meter.verification.get('d'.repeat(40))).toEqual({ verified: true, reason: 'valid' });
  });
});

describe('runProjections', () => {
  const world = () =>
    fakeGitHub([
      fakeRepo('octo/hello', { releases: [{ id: 1, tag_name: 'v1', name: 'One', draft: false, prerelease: false }] }),
    ]);
  const SPEC =
    'projections:\n  repos:\n    source: { type: repository, api: rest, repositories: [octo/hello] }\n  rel:\n    source: { type: releases, repositories: [octo/hello] }\n';

  it('a document over the size limit names its projection and spec line (matched by error name)', async () => {
    const inner = new MemoryRefStore();
    const store: RefStore = Object.create(inner);
    store.commit = async (changes: readonly Change[]) => {
      const key = changes.find((c) => c.key.startsWith('github/release/'))!.key;
      throw Object.assign(new DocDbError(`document ${key} is 104857601 bytes, over the 100 MiB limit.`, { key }), {
        name: 'DocumentTooLarge',
      });
    };
    const err = await runProjections({
      spec: parseSpec(SPEC, 'd.yml'),
      client: world().client,
      store,
      apiUrl: API,
    }).then(
      () => undefined,
      (e: unknown) => e as DocDbError,
    );
    expect(err?.name).toBe('DocumentTooLarge');
    expect(err?.message).toBe(
      'document github/release/octo/hello@v1.json is 104857601 bytes, over the 100 MiB limit (projection "rel", d.yml:4)',
    );
    expect(err?.data).toMatchObject({ projection: 'rel', file: 'd.yml', line: 4 });
  });

  it('opens a group per projection and appends the trailers to the commit message', async () => {
    const inner = new MemoryRefStore();
    const events: string[] = [];
    const r = await runProjections({
      spec: parseSpec(SPEC, 'd.yml'),
      client: world().client,
      store: inner,
      apiUrl: API,
      log: (l) => events.push(l.slice(0, 8)),
      onProjection: { start: (n) => events.push(`start ${n}`), end: (n) => events.push(`end ${n}`) },
      trailers: ['Docdb-Run: 1.2', 'Docdb-Nonce: ab'],
    });
    expect(events.filter((e) => /^(start|end) /.test(e))).toEqual(['start repos', 'end repos', 'start rel', 'end rel']);
    expect(events.indexOf('[repos] ')).toBeGreaterThan(events.indexOf('start repos'));
    expect(events.indexOf('[repos] ')).toBeLessThan(events.indexOf('end repos'));
    const [entry] = (await inner.history('github/release/octo/hello@v1.json')).entries;
    expect(entry?.message).toMatch(
      /^docdb: project repos \(\+1 ~0 -0\), rel \(\+1 ~0 -0\)\n\nDocdb-Run: 1\.2\nDocdb-Nonce: ab\n$/,
    );
    expect(r.changed).toBe(true);
  });
});
