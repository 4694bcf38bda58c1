/**
 * StreamedCommit (issue 11, memory): a run's changes go to the store in parts once many are waiting, so the
 * store uploads while the sources are still being read; few changes are committed at the end exactly as
 * before. Counted in the emulator's request log.
 */
import { describe, expect, it } from 'vitest';
import { AuthMissing } from '../../src/core/errors.js';
import { type DocumentOp, DocumentStore } from '../../src/document/document-store.js';
import { STREAM_PART, StreamedCommit } from '../../src/projection/run/streamed-commit.js';
import { emulatorPerFile, freshRepo, store } from '../remote-api/helpers.js';

const fx = emulatorPerFile();

const op = (i: number): DocumentOp => ({
  op: 'put',
  document: { namespace: 'bench', type: 'item', id: `g${i % 7}/item-${i}`, data: { i, pad: 'p'.repeat(300) } },
});
const creates = (from: number) => fx.em.requests.slice(from).filter((q) => q.operation === 'git/create-tree').length;

describe('StreamedCommit', () => {
  it('few changes: nothing is sent until finish, then one commit costing what commit() costs', async () => {
    const docs = new DocumentStore(store(fx.em, fx.repo));
    const out = new StreamedCommit(docs, () => 'few');
    const from = fx.em.requests.length;
    for (let i = 0; i < STREAM_PART - 1; i++) await out.add(op(i));
    expect(fx.em.requests.length).toBe(from);
    expect(out.streaming).toBe(false);
    const r = await out.finish();
    expect(r?.changed).toBe(true);
    expect(r?.written).toHaveLength(STREAM_PART - 1);
    const other = freshRepo(fx.em);
    const again = await new DocumentStore(store(fx.em, other)).commit(
      Array.from({ length: STREAM_PART - 1 }, (_, i) => op(i)),
      { message: 'few' },
    );
    expect(r?.requests).toBe(again.requests);
  });

  it('many changes: trees are uploaded while changes are still being added; ONE commit with every change', async () => {
    const docs = new DocumentStore(store(fx.em, fx.repo, { maxInlineBytes: 64 * 1024 }));
    await docs.put({ namespace: 'seed', type: 'x', id: 'a', data: {} });
    const before = await docs.head();
    const out: StreamedCommit = new StreamedCommit(docs, () => `streamed ${out.count}`);
    const from = fx.em.requests.length;
    for (let i = 0; i < 3 * STREAM_PART; i++) await out.add(op(i));
    // Parts were handed over and the store has been uploading them (the first parts, at least).
    expect(out.streaming).toBe(true);
    expect(creates(from)).toBeGreaterThan(0);
    const r = await out.finish([{ op: 'meta', key: '_docdb/state/x.json', value: '{}' }]);
    expect(r?.changed).toBe(true);
    expect(r?.written).toHaveLength(3 * STREAM_PART + 1);
    const h = await docs.store.history('_docdb/state/x.json');
    expect(h.entries).toHaveLength(1);
    expect(h.entries[0]?.parents).toEqual([before]);
    expect(h.entries[0]?.message).toBe(`streamed ${3 * STREAM_PART}`); // the message is made after the last part
    expect((await docs.store.list({ prefix: 'bench/' })).entries).toHaveLength(3 * STREAM_PART);
  });

  it('no change at all: finish returns undefined and sends nothing', async () => {
    const docs = new DocumentStore(store(fx.em, fx.repo));
    const out = new StreamedCommit(docs, () => 'none');
    const from = fx.em.requests.length;
    expect(await out.finish()).toBeUndefined();
    expect(fx.em.requests.length).toBe(from);
  });

  it('a write that fails while streaming refuses the next part with its error (reading stops), no commit', async () => {
    const anonymous = new DocumentStore(store(fx.em, fx.repo, { token: undefined }));
    const out = new StreamedCommit(anonymous, () => 'x');
    let err: unknown;
    let added = 0;
    try {
      for (let i = 0; i < 10 * STREAM_PART; i++, added++) await out.add(op(i));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AuthMissing);
    expect(added).toBeLessThan(10 * STREAM_PART); // stopped early, not after the whole source
    await expect(out.finish()).rejects.toBeInstanceOf(AuthMissing);
    expect(await anonymous.head()).toBeNull();
  });

  it('abort (the run failed) ends a started commit in parts with no commit', async () => {
    const docs = new DocumentStore(store(fx.em, fx.repo));
    await docs.put({ namespace: 'seed', type: 'x', id: 'a', data: {} });
    const tip = await docs.head();
    const out = new StreamedCommit(docs, () => 'x');
    for (let i = 0; i < 2 * STREAM_PART; i++) await out.add(op(i));
    expect(out.streaming).toBe(true);
    await out.abort(new Error('the source failed'));
    expect(await docs.head()).toBe(tip);
    expect((await docs.store.list({ prefix: 'bench/' })).entries).toHaveLength(0);
  });
});
