/**
 * The Action's `since` and `version` inputs take the 7 characters a summary or the CLI shows (issue 32
 * item 2), resolved by the library's one resolver among the section's commits; in-process (runAction
 * from src/, on a memory store), since dist/ is rebuilt by the release, not by this change.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import { DocDbError } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';

const env = { GITHUB_REPOSITORY: 'o/r' };
const reader = (v: Record<string, string>) => (n: string) => v[n] ?? '';

async function section() {
  const store = new MemoryRefStore();
  const docs = new DocumentStore(store);
  const v1 = (await docs.put({ namespace: 'n', type: 't', id: 'a', data: 1 })).version!;
  const v2 = (await docs.put({ namespace: 'n', type: 't', id: 'a', data: 2 })).version!;
  return { store, v1, v2 };
}

describe('abbreviated since and version inputs', () => {
  it('mode changes: since and version resolve to the full commits of the section', async () => {
    const { store, v1, v2 } = await section();
    const inputs = readInputs(
      reader({ mode: 'changes', since: v1.slice(0, 7), version: v2.slice(0, 8).toUpperCase() }),
      env,
    );
    const { outputs } = await runAction(inputs, { store });
    expect(outputs).toMatchObject({ 'previous-version': v1, version: v2, changed: 'true' });
    expect(JSON.parse(outputs.modified!)).toMatchObject([{ id: 'a' }]);
  });

  it('mode read: version resolves; an abbreviation of no commit of the section fails naming the input', async () => {
    const { store, v1 } = await section();
    const read = await runAction(
      readInputs(reader({ mode: 'read', namespace: 'n', type: 't', id: 'a', version: v1.slice(0, 7) }), env),
      { store },
    );
    expect(JSON.parse(read.outputs.document!)).toMatchObject({ version: v1, data: 1 });
    const missing = await runAction(readInputs(reader({ mode: 'changes', since: '0000000' }), env), { store }).catch(
      (e) => e,
    );
    expect(missing).toBeInstanceOf(DocDbError);
    expect((missing as DocDbError).message).toMatch(
      /^input since: version "0000000" is not a commit of the section refs\/docdb\/documents \(searched all 2 commits/,
    );
  });

  it('mode export: version resolves, the export is of that commit', async () => {
    const { store, v1 } = await section();
    const dir = mkdtempSync(join(tmpdir(), 'docdb-abbrev-export-'));
    try {
      const inputs = readInputs(reader({ mode: 'export', 'export-path': 'out.jsonl', version: v1.slice(0, 7) }), env);
      const { outputs } = await runAction(inputs, { store, workspace: dir });
      expect(outputs).toMatchObject({ version: v1, count: '1' });
      const lines = readFileSync(join(dir, 'out.jsonl'), 'utf8').trim().split('\n');
      expect(lines.map((l) => JSON.parse(l))).toMatchObject([{ id: 'a', version: v1, data: 1 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fewer than 4 characters, or not hex, is refused while reading the inputs', () => {
    expect(() => readInputs(reader({ mode: 'changes', since: 'abc' }), env)).toThrow(
      /since.*"abc" is not a commit SHA: 40 hex characters, or at least the first 4/,
    );
    expect(() =>
      readInputs(reader({ mode: 'read', namespace: 'n', type: 't', id: 'a', version: 'HEAD~1' }), env),
    ).toThrow(/is not a commit SHA/);
  });
});
