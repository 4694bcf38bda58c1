/**
 * Bounded concurrency for reads key by key, apart from the bulk reader (bulk-reads.ts): the derive reads of
 * every write (derived-reads.ts) use it too, and load with the write path, while the bulk reader loads only
 * for `readMany` — in a browser bundle, on first use.
 */

/** Requests in flight at once when reading key by key (REST blobs, contents). */
export const BULK_CONCURRENCY = 8;

/**
 * Run `fn` over `items`, at most {@link BULK_CONCURRENCY} at a time.
 *
 * @example
 * await eachLimited(shas, async (sha) => { values.set(sha, await trees.blob(ctx, sha)); });
 */
export async function eachLimited<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, items.length) }, worker));
}
