/**
 * One commit whose changes arrive in parts, on any RefStore: stores that can upload as they go
 * (`commitParts`, e.g. the GitHub API store chaining create-tree requests) hold one part at a time;
 * the others receive every part gathered into one `commit` — the same result, more memory.
 */
import { InvalidConfig } from './errors.js';
import type { Change, ChangeParts, CommitPartsOptions, RefStore, WriteResult } from './refstore.js';

/**
 * Commit every part's changes in ONE commit (none when nothing changes). A key named in two parts is
 * `InvalidKey` (rule `duplicate`), as in one `commit`; an error from the parts themselves (a failing
 * source) ends the write with no commit.
 *
 * @example
 * async function* pages() { for (let p = 0; p < 3; p++) yield [{ op: 'put', key: `k/${p}.json`, value: '{}' }] as const; }
 * const r = await commitInParts(store, pages(), { message: 'backfill' });
 */
export async function commitInParts(
  store: RefStore,
  parts: ChangeParts,
  options: CommitPartsOptions = {},
): Promise<WriteResult> {
  assertPartsOptions(options);
  if (store.commitParts) return store.commitParts(parts, options);
  const all: Change[] = [];
  for await (const part of parts) {
    if (!Array.isArray(part)) throw new TypeError('each part must be an array of changes');
    for (const c of part) all.push(c);
  }
  const message = partsMessage(options);
  return store.commit(all, {
    ...(message === undefined ? {} : { message }),
    ...(options.derive ? { derive: options.derive } : {}),
  });
}

/** The message of a commit in parts, once every part has arrived (undefined: the store's default). */
export function partsMessage(options: CommitPartsOptions): string | undefined {
  return typeof options.message === 'function' ? options.message() : options.message;
}

/** `commitParts` takes a message only: compare-and-set (`ifMatch`) needs every key up front, in `commit`. */
export function assertPartsOptions(options: CommitPartsOptions): void {
  if ((options as { ifMatch?: unknown }).ifMatch !== undefined) {
    throw new InvalidConfig(
      'ifMatch',
      'a commit in parts does not take ifMatch; use commit for compare-and-set writes',
      {
        allowed: 'no ifMatch',
      },
    );
  }
}
