/**
 * `expect: { check: { module } }` runs under the custom-reducer rules (issue 38): a module inside the workspace
 * only (symbolic links resolved first), in a worker under a time limit; its problems fail the write through
 * DocumentStore's `expect` option.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExpectationsFailed, InvalidSpec } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { loadCheck } from '../../src/projection/reducers/check.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { tempDir } from '../temp-dir.js';

const T = { namespace: 'github', type: 'issue' };
const doc = (id: string, data: Record<string, unknown>) => ({ ...T, id, data });

describe('check modules', () => {
  it('a check inside the workspace gets the written documents; its problems fail the write, nothing written', async () => {
    const ws = tempDir('docdb-check-');
    mkdirSync(join(ws, 'checks'));
    writeFileSync(
      join(ws, 'checks', 'titles.mjs'),
      `export default (documents, context) => [
        ...documents.filter((d) => !d.data.title).map((d) => ({ id: d.id, field: 'data.title', message: 'empty title' })),
        ...(context.removed.length ? ['removed ' + context.removed.length] : []),
      ];\n`,
    );
    const check = await loadCheck('./checks/titles.mjs', { baseDir: ws, confineTo: ws });
    try {
      const store = new MemoryRefStore();
      const docs = new DocumentStore(store);
      const expectation = [
        { ...T, expectations: { check: { module: './checks/titles.mjs' } }, runCheck: check.runCheck },
      ];
      await docs.putMany([doc('1', { title: 'a' })], { expect: expectation });
      const tip = await store.head();
      const e = await docs
        .commit(
          [
            { op: 'put', document: doc('2', { title: '' }) },
            { op: 'delete', identity: { namespace: 'github', doc_type: 'issue', id: '1' } },
          ],
          { expect: expectation },
        )
        .catch((x) => x);
      expect(e).toBeInstanceOf(ExpectationsFailed);
      expect((e as ExpectationsFailed).data.violations).toEqual([
        { expectation: 'check', key: 'github/issue/2.json', field: 'data.title', message: 'empty title' },
        { expectation: 'check', namespace: 'github', type: 'issue', message: 'removed 1' },
      ]);
      expect(await store.head()).toBe(tip);
    } finally {
      await check.close();
    }
  });

  it('a module reached through a symbolic link out of the workspace is refused before it runs', async () => {
    const ws = tempDir('docdb-check-ws-');
    const outside = tempDir('docdb-check-out-');
    writeFileSync(join(outside, 'evil.mjs'), 'export default () => [];\n');
    symlinkSync(join(outside, 'evil.mjs'), join(ws, 'evil.mjs'));
    const where = { file: 'docdb.yml', line: 7, field: 'projections.issues.expect.check.module', projection: 'issues' };
    const e = await loadCheck('./evil.mjs', { baseDir: ws, confineTo: ws, where }).catch((x) => x);
    expect(e).toBeInstanceOf(InvalidSpec);
    expect((e as InvalidSpec).message).toMatch(
      /^docdb\.yml:7: projections\.issues\.expect\.check\.module: check module \.\/evil\.mjs resolves to .*outside the workspace/,
    );
    expect((e as InvalidSpec).data.reason).toBe('outside-workspace');
  });

  it('a check that never returns is stopped at its time limit and fails the write', async () => {
    const ws = tempDir('docdb-check-');
    writeFileSync(join(ws, 'loop.mjs'), 'export default () => { for (;;) {} };\n');
    const check = await loadCheck('./loop.mjs', { baseDir: ws, timeoutMs: 200 });
    try {
      const problems = await check.runCheck([{ ...T, id: '1', data: {} }], { ...T, removed: [], version: null });
      expect(problems).toEqual([
        { expectation: 'check', message: 'check module ./loop.mjs failed: did not return within 0.2 s' },
      ]);
    } finally {
      await check.close();
    }
  });

  it('a module without a default function is refused when loaded', async () => {
    const ws = tempDir('docdb-check-');
    writeFileSync(join(ws, 'none.mjs'), 'export const x = 1;\n');
    await expect(loadCheck('./none.mjs', { baseDir: ws })).rejects.toThrow(/no default export that is a function/);
  });
});
