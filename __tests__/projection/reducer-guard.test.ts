/**
 * Guards around custom reducers and the spec file: confinement to the workspace (after symbolic links),
 * a time limit per reducer call (busy loops and never-settling promises), loading before any request,
 * YAML alias bombs and reserved projection names.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidSpec } from '../../src/core/errors.js';
import { runProjections } from '../../src/projection/run/index.js';
import { loadSpec, parseSpec } from '../../src/projection/spec/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { tempDir } from '../temp-dir.js';
import { API, fakeGitHub, fakeRepo, issue } from './fake-github.js';

/** outside/ holds a module and a spec; ws/ is the workspace with spec.yml. */
function layout() {
  const top = realpathSync(tempDir('docdb-guard-'));
  const ws = join(top, 'ws');
  mkdirSync(join(ws, 'cfg'), { recursive: true });
  mkdirSync(join(top, 'outside'));
  writeFileSync(join(top, 'outside', 'outside.mjs'), 'export default () => ({ pwned: true });\n');
  writeFileSync(join(top, 'outside.mjs'), 'export default () => ({ pwned: true });\n');
  writeFileSync(join(ws, 'cfg', 'ok.mjs'), 'export default (i) => ({ n: i.number });\n');
  return { top, ws };
}

const world = () => fakeGitHub([fakeRepo('octo/hello', { issues: [issue(1), issue(2)] })]);

const specWith = (reducer: string) =>
  `projections:\n  t:\n    source: { type: issues, repositories: [octo/hello] }\n    reducer: ${reducer}\n`;

async function run(ws: string, reducer: string, extra: Partial<Parameters<typeof runProjections>[0]> = {}) {
  const gh = world();
  const store = new MemoryRefStore();
  const spec = parseSpec(specWith(reducer), join(ws, 'cfg', 'spec.yml'));
  const result = await runProjections({ spec, client: gh.client, store, apiUrl: API, workspace: ws, ...extra }).then(
    (r) => ({ ok: true as const, r }),
    (e: unknown) => ({ ok: false as const, e: e as InvalidSpec }),
  );
  return { ...result, calls: gh.calls.length, head: await store.head() };
}

describe('reducer modules are confined to the workspace', () => {
  it('runs a module inside the workspace', async () => {
    const { ws } = layout();
    const r = await run(ws, '{ module: ./ok.mjs }');
    expect(r.ok).toBe(true);
    expect(r.head).not.toBeNull();
  });

  it('refuses an absolute path, "..", and a symbolic link leading out — before any request', async () => {
    const { top, ws } = layout();
    symlinkSync(join(top, 'outside', 'outside.mjs'), join(ws, 'cfg', 'link.mjs'));
    for (const mod of [join(top, 'outside.mjs'), '../../outside.mjs', '../../outside/outside.mjs', './link.mjs']) {
      const r = await run(ws, `{ module: ${JSON.stringify(mod)} }`);
      expect(r.ok, mod).toBe(false);
      if (r.ok) continue;
      expect(r.e).toBeInstanceOf(InvalidSpec);
      expect(r.e.message).toMatch(
        /spec\.yml:4: projections\.t\.reducer\.module: reducer module .* outside the workspace/,
      );
      expect(r.e.message).toContain('symbolic links are resolved first');
      expect(r.calls, mod).toBe(0); // nothing was requested
      expect(r.head).toBeNull(); // nothing was written
    }
  });

  it('the spec itself must be inside the workspace (a path to /etc/passwd, or a symbolic link out)', async () => {
    const { top, ws } = layout();
    writeFileSync(join(top, 'outside', 'spec.yml'), specWith('issue'));
    symlinkSync(join(top, 'outside', 'spec.yml'), join(ws, 'linked.yml'));
    for (const path of ['/etc/passwd', join(top, 'outside', 'spec.yml'), join(ws, '..', 'outside', 'spec.yml')]) {
      await expect(loadSpec(path, { workspace: ws })).rejects.toThrow(/outside the workspace/);
    }
    await expect(loadSpec(join(ws, 'linked.yml'), { workspace: ws, displayPath: 'linked.yml' })).rejects.toThrow(
      /projection spec linked\.yml resolves to .*outside\/spec\.yml, outside the workspace/,
    );
    writeFileSync(join(ws, 'in.yml'), specWith('issue'));
    expect((await loadSpec(join(ws, 'in.yml'), { workspace: ws })).projections).toHaveLength(1);
  });
});

describe('reducers run under a time limit', () => {
  it('a busy loop is stopped and fails naming the projection and its spec line', async () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'cfg', 'busy.mjs'), 'export default () => { for (;;) {} };\n');
    const r = await run(ws, '{ module: ./busy.mjs }', { reducerTimeoutMs: 300 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.e.message).toMatch(
      /spec\.yml:4: projections\.t\.reducer \(projection "t"\) did not return within 0\.3 s on github\/issue\/octo\/hello#1\.json and was stopped/,
    );
    expect(r.e.data).toMatchObject({ reason: 'timeout', projection: 't', line: 4 });
    expect(r.head).toBeNull();
  });

  it('a promise that never settles fails the same way (no silent exit 13)', async () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'cfg', 'never.mjs'), 'export default () => new Promise(() => {});\n');
    const r = await run(ws, '{ module: ./never.mjs }', { reducerTimeoutMs: 300 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.e.message).toMatch(/projection "t"\) did not return within 0\.3 s/);
  });

  it('a reducer that throws names the projection, the line and the key; the worker keeps per-projection state', async () => {
    const { ws } = layout();
    writeFileSync(
      join(ws, 'cfg', 'count.mjs'),
      'let n = 0;\nexport default (i) => { n++; if (i.number === 2) throw new Error("boom after " + n); return { n }; };\n',
    );
    const r = await run(ws, '{ module: ./count.mjs }');
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.e.message).toMatch(
        /spec\.yml:4: projections\.t\.reducer failed on github\/issue\/octo\/hello#2\.json: boom after 2/,
      );
  });
});

describe('reducers are loaded and checked before the first request', () => {
  it('a broken module of the SECOND projection fails the run with 0 requests (not after the first one read)', async () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'cfg', 'broken.mjs'), 'export default (i) => {\n');
    for (const reducer of [
      '{ module: ./broken.mjs }',
      '{ module: ./ok.mjs, export: nope }',
      '{ module: ./gone.mjs }',
    ]) {
      const gh = world();
      const store = new MemoryRefStore();
      let requests = 0;
      const counted = Object.create(store) as MemoryRefStore;
      counted.head = () => {
        requests++;
        return store.head();
      };
      const text = `projections:\n  first:\n    source: { type: issues, repositories: [octo/hello] }\n  second:\n    source: { type: issues, repositories: [octo/hello] }\n    identity: { type: other }\n    reducer: ${reducer}\n`;
      const spec = parseSpec(text, join(ws, 'cfg', 'spec.yml'));
      const err = await runProjections({ spec, client: gh.client, store: counted, apiUrl: API, workspace: ws }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.message, reducer).toMatch(/spec\.yml:7: projections\.second\.reducer/);
      expect(gh.calls, reducer).toHaveLength(0); // no source request
      expect(requests, reducer).toBe(0); // not even the section tip was read
    }
  });
});

describe('spec parsing guards', () => {
  it('a YAML alias bomb is refused with file:line', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
      'projections: {}',
    ].join('\n');
    expect(() => parseSpec(bomb, 'bomb.yml')).toThrow(
      /invalid projection spec: bomb\.yml:2:\d+: \(yaml\): Excessive alias count/,
    );
  });

  it('projection names __proto__, constructor and prototype are refused, not dropped', () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const text = `projections:\n  ok:\n    source: { type: issues, repositories: [o/r] }\n  ${name}:\n    source: { type: issues, repositories: [o/r] }\n`;
      let err: InvalidSpec | undefined;
      try {
        parseSpec(text, 'names.yml');
      } catch (e) {
        err = e as InvalidSpec;
      }
      expect(err, name).toBeInstanceOf(InvalidSpec);
      expect(err?.message).toContain(`names.yml:4:3: projections.${name}: projection name "${name}" is reserved`);
      expect(err?.data).toMatchObject({ line: 4, column: 3 });
    }
  });
});
