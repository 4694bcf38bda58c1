/**
 * A section with documents and their index as the library writes it (DocumentStore on a MemoryRefStore,
 * declaration and index in the same commit), as files a test can commit anywhere — e.g. onto the
 * emulator with `em.state.commitFiles`, so that the readers (CLI, Action, browser) query a section
 * exactly as any docdb writer leaves it, whichever store wrote it.
 */

import { DocumentStore } from '../../src/document/document-store.js';
import type { DocumentInput } from '../../src/document/envelope.js';
import type { TypeIndex } from '../../src/document/indexes/declaration.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';

/**
 * Every file of a section holding `documents`, with `indexes` declared and built in the same commit.
 *
 * @example
 * em.state.commitFiles(repo, { branch: 'refs/docdb/documents', files: await indexedSectionFiles(docs, indexes) });
 */
export async function indexedSectionFiles(
  documents: readonly DocumentInput[],
  indexes: readonly TypeIndex[],
): Promise<Record<string, Uint8Array>> {
  const store = new MemoryRefStore();
  await new DocumentStore(store).putMany(documents, { indexes: [...indexes] });
  const files: Record<string, Uint8Array> = {};
  for (const entry of (await store.list()).entries) {
    const got = await store.get(entry.key);
    if (got) files[entry.key] = got.value;
  }
  if (!Object.keys(files).some((k) => k.startsWith('_docdb/index/'))) {
    throw new Error('the library wrote no index files: the fixture would not test what it says');
  }
  return files;
}
