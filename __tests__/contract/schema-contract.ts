/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts, so every backend runs it): a schema
 * declared through one store instance is kept by every other writer of the section (issue 38) — a second
 * instance (`peer`), and where the fixture offers one, a store of ANOTHER backend or transport on the same
 * section (`foreignPeer`: SubprocessGitRefStore on GitRefStore's repository, another transport on the
 * emulator). A write that breaks it is refused with InvalidDocument naming the violation; the tip is
 * unchanged, whichever write path (put, putMany, commitParts) and whether or not the writer had read the
 * section before the schema was declared.
 */
import { describe, expect, it } from 'vitest';
import type { RefStore } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/document-store.js';
import type { ContractFixture } from './refstore-contract.js';

const SCHEMA = { type: 'object', required: ['stars'], properties: { stars: { type: 'integer', minimum: 0 } } };
const T = { namespace: 'github', type: 'repo' };
const repo = (id: string, data: unknown) => ({ namespace: 'github', type: 'repo', id, data });

async function refusedUnchanged(
  writer: DocumentStore,
  write: () => Promise<unknown>,
  pointer = '/data/stars',
): Promise<void> {
  const head = await writer.head();
  const e = await write().then(
    () => new Error('the bad write was accepted'),
    (x: unknown) => x,
  );
  expect(e).toMatchObject({ code: 'InvalidDocument', data: { field: 'data' } });
  expect((e as { data: { violations: { pointer: string }[] } }).data.violations[0]?.pointer).toBe(pointer);
  expect(await writer.head()).toBe(head);
}

export function describeSchemaContract(get: () => { fx: ContractFixture; store: RefStore }): void {
  describe('a schema declared through one store is kept by every writer of the section', () => {
    it('another instance that wrote before the declaration refuses a bad put, putMany and commitParts', async () => {
      const { fx, store } = get();
      const docs = new DocumentStore(store);
      const other = new DocumentStore(fx.peer());
      await other.put(repo('o/before', { stars: 1 })); // the other writer has read (and cached) the section
      const declared = await docs.declareSchema(T, SCHEMA);
      expect(declared.changed).toBe(true);
      await refusedUnchanged(other, () => other.put(repo('o/a', { stars: 'many' })));
      await refusedUnchanged(other, () => other.putMany([repo('o/b', { stars: 2 }), repo('o/c', { stars: -1 })]));
      await refusedUnchanged(other, () => other.commitParts([[{ op: 'put', document: repo('o/d', {}) }]]));
      expect(await other.head()).toBe(declared.version);
      expect((await other.put(repo('o/a', { stars: 3 }))).changed).toBe(true);
      expect(await other.schema(T)).toEqual(SCHEMA);
    });

    it('a store of another backend on the same section refuses a bad write (when the fixture has one)', async (ctx) => {
      const { fx, store } = get();
      if (!fx.foreignPeer) {
        console.log('[contract] schema across backends: this fixture has no foreignPeer; the peer case covers it');
        ctx.skip();
        return;
      }
      const docs = new DocumentStore(store);
      await docs.declareSchema(T, SCHEMA);
      const foreign = new DocumentStore(fx.foreignPeer());
      await refusedUnchanged(foreign, () => foreign.put(repo('o/a', { stars: 'many' })));
      // And the other way round: declared through the foreign store, refused through this one.
      await foreign.declareSchema({ namespace: 'github', type: 'issue' }, { type: 'object', required: ['title'] });
      await refusedUnchanged(
        docs,
        () => docs.put({ namespace: 'github', type: 'issue', id: '1', data: {} }),
        '/data/title',
      );
    });
  });
}
