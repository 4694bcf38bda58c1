/**
 * The examples in docs/documents.md "Editing safely", "Reading what changed", "Live pages" and "Reading many
 * documents" run here
 * as written (each against a fresh DocumentStore on a MemoryRefStore); a failing example fails the test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/core/errors.js';
import { watch } from '../../src/core/watch.js';
import { DocumentStore } from '../../src/document/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';

const md = readFileSync(new URL('../../docs/documents.md', import.meta.url), 'utf8');

function exampleUnder(heading: string): string {
  const at = md.indexOf(`\n## ${heading}\n`);
  expect(at, heading).toBeGreaterThan(0);
  const rest = md.slice(at + 1);
  const end = rest.indexOf('\n## ', 4);
  const section = end < 0 ? rest : rest.slice(0, end);
  const m = /```js\n([\s\S]*?)```/.exec(section);
  expect(m, `a js example under ${heading}`).not.toBeNull();
  return m![1]!;
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...a: unknown[]) => Promise<void>;

describe('docs/documents.md examples run', () => {
  for (const heading of ['Editing safely', 'Reading what changed', 'Live pages', 'Reading many documents']) {
    it(heading, async () => {
      const store = new MemoryRefStore();
      const docs = new DocumentStore(store);
      await new AsyncFunction('docs', 'store', 'errors', 'watch', exampleUnder(heading))(docs, store, errors, watch);
      expect(await store.head()).not.toBeNull();
    });
  }
});
