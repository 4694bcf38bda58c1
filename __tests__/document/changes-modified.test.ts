/**
 * One word for one thing (issue 32 item 3): the list of documents whose content changed is `modified` in
 * the library's `changes()` as in the CLI's JSON and the Action's outputs; `changed` stays as a
 * deprecated alias holding the very same list (WriteResult.changed is a yes/no).
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';

describe('docs.changes(): modified, and changed as its alias', () => {
  it('lists the modified documents under modified; changed is the same list', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    const v1 = (await docs.put({ namespace: 'n', type: 't', id: 'a', data: 1 })).version as string;
    await docs.put({ namespace: 'n', type: 't', id: 'a', data: 2 });
    await docs.put({ namespace: 'n', type: 't', id: 'b', data: 1 });
    const r = await docs.changes({ from: v1 });
    expect(r.modified.map((d) => d.id)).toEqual(['a']);
    expect(r.added.map((d) => d.id)).toEqual(['b']);
    expect(r.changed).toBe(r.modified);
    const scoped = await docs.changes({ from: v1, namespace: 'n', type: 't' });
    expect(scoped.modified).toEqual(r.modified);
  });
});
