/**
 * The browser client's `watch` and `changes` (memory backend, in Node): a hidden page does not poll
 * until it becomes visible (Page Visibility), errors back off and honour Retry-After, and a change
 * since the last poll is reported once.
 */
import { describe, expect, it } from 'vitest';
import { loadDocDbClient } from '../../src/browser/index.js';
import { RateLimited, TransportError } from '../../src/core/errors.js';
import { type VisibilitySource, watch } from '../../src/core/watch.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';

/** A fake `document` whose visibility the test flips. */
function fakePage(hidden: boolean) {
  const listeners = new Set<() => void>();
  const page = {
    hidden,
    addEventListener: (_: 'visibilitychange', l: () => void) => listeners.add(l),
    removeEventListener: (_: 'visibilitychange', l: () => void) => listeners.delete(l),
    show() {
      page.hidden = false;
      for (const l of [...listeners]) l();
    },
  };
  return page as VisibilitySource & { show(): void; hidden: boolean };
}

describe('watch in the browser client', () => {
  it('does not poll while the page is hidden; polls and reports once it is shown', async () => {
    const client = await loadDocDbClient({ backend: 'memory' });
    const v1 = (await client.put({ namespace: 'n', type: 't', id: 'a', data: 1 })).version!;
    const page = fakePage(true);
    let heads = 0;
    const head = client.refStore.head.bind(client.refStore);
    client.refStore.head = () => {
      heads++;
      return head();
    };
    const stop = new AbortController();
    const seen: string[] = [];
    const done = client.watch(
      {
        since: v1,
        interval: 1000,
        signal: stop.signal,
        visibility: page,
        sleep: async () => {
          stop.abort();
        },
      },
      (c) => {
        seen.push(...c.added.map((d) => d.id));
      },
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(heads).toBe(0); // hidden: no poll at all
    await client.put({ namespace: 'n', type: 't', id: 'b', data: 2 });
    page.show();
    await done;
    expect(heads).toBe(1);
    expect(seen).toEqual(['b']);
    const ch = await client.changes({ from: v1 });
    expect(ch.added.map((d) => d.id)).toEqual(['b']);
  });

  it('backs off exponentially on errors and waits Retry-After on RateLimited; permanent errors reject', async () => {
    const store = new MemoryRefStore();
    const failures = [
      new TransportError('down'),
      new TransportError('down'),
      new RateLimited('slow down', { retryAfter: 90 }),
    ];
    const head = store.head.bind(store);
    store.head = async () => {
      const f = failures.shift();
      if (f) throw f;
      return head();
    };
    const waits: number[] = [];
    const errors: unknown[] = [];
    const stop = new AbortController();
    await watch(
      store,
      {
        interval: 1000,
        signal: stop.signal,
        visibility: null,
        onError: (e) => errors.push(e),
        sleep: async (ms) => {
          waits.push(ms);
          if (waits.length === 4) stop.abort();
        },
      },
      () => {},
    );
    expect(waits).toEqual([2000, 4000, 90_000, 1000]);
    expect(errors).toHaveLength(3);
    // A version that is not a commit of the section can never succeed: the watch rejects with it.
    await store.put('x.json', '1');
    await expect(
      watch(store, { since: 'f'.repeat(40), interval: 1, visibility: null, sleep: async () => {} }, () => {}),
    ).rejects.toMatchObject({ code: 'InvalidVersion' });
  });
});
