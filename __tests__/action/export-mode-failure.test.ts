/**
 * The Action's `mode: export` when the read fails mid-stream (issue 20: "a failed export leaves no
 * half-written file"): the store's reads fail after the first page of 1,000 documents was written to the
 * temporary file. The target keeps its previous content (or never appears) and no temporary file or directory
 * is left, in both export formats. Runs the mode itself (src), with the fault injected at the RefStore seam.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportMode } from '../../src/action/export-mode.js';
import { readInputs } from '../../src/action/inputs.js';
import { TransportError } from '../../src/core/errors.js';
import type { RefStore } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { tempDir } from '../git/helpers.js';

const tmp = tempDir('docdb-export-fail-');
afterAll(() => tmp.cleanup());

/** A section of 1,200 documents whose reads fail from the `failAt`-th `get` on (a lost connection). */
async function failingSection(failAt: number): Promise<{ store: RefStore; gets: () => number }> {
  const inner = new MemoryRefStore();
  await new DocumentStore(inner).putMany(
    Array.from({ length: 1_200 }, (_, i) => ({
      namespace: 'n',
      type: 't',
      id: `d${String(i).padStart(4, '0')}`,
      data: i,
    })),
  );
  let gets = 0;
  const store = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'get') {
        return async (...args: Parameters<RefStore['get']>) => {
          if (++gets >= failAt) throw new TransportError('injected: the connection was reset', { reason: 'network' });
          return target.get(...args);
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { store, gets: () => gets };
}

const inputs = (extra: Record<string, string>) =>
  readInputs((name) => ({ mode: 'export', token: 'x', ...extra })[name] ?? '', { GITHUB_REPOSITORY: 'o/r' });

describe('mode: export, reads failing after the first page', () => {
  it('jsonl: the target keeps its previous content; no temporary file', async () => {
    const ws = join(tmp.dir, 'jsonl');
    mkdirSync(join(ws, 'out'), { recursive: true });
    writeFileSync(join(ws, 'out/all.jsonl'), 'previous\n');
    const { store, gets } = await failingSection(1_100);
    const err = await exportMode(inputs({ 'export-path': 'out/all.jsonl' }), store, 'refs/docdb/documents', ws).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(TransportError);
    expect(gets()).toBe(1_100); // the first page (1,000 documents) was read and written before the failure
    expect(readFileSync(join(ws, 'out/all.jsonl'), 'utf8')).toBe('previous\n');
    expect(readdirSync(join(ws, 'out'))).toEqual(['all.jsonl']);
  });

  it('jsonl to a new path: nothing appears', async () => {
    const ws = join(tmp.dir, 'fresh');
    mkdirSync(ws);
    const { store } = await failingSection(1_100);
    await expect(exportMode(inputs({ 'export-path': 'all.jsonl' }), store, 'refs/docdb/documents', ws)).rejects.toThrow(
      /connection was reset/,
    );
    expect(readdirSync(ws)).toEqual([]);
  });

  it('files: the directory is never created; no temporary directory', async () => {
    const ws = join(tmp.dir, 'files');
    mkdirSync(ws);
    const { store, gets } = await failingSection(1_100);
    const err = await exportMode(
      inputs({ 'export-path': 'docs', 'export-format': 'files' }),
      store,
      'refs/docdb/documents',
      ws,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(gets()).toBe(1_100);
    expect(readdirSync(ws)).toEqual([]);
  });
});
