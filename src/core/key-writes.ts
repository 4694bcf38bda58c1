/**
 * `put` and `delete` are one-change commits in every store, so `ifMatch`, retries, no-op detection and
 * messages follow the one `commit` path. Stores extend this class instead of writing the delegation out.
 */
import { keyWriteToCommit } from './plan.js';
import type { Change, CommitOptions, KeyWriteOptions, WriteResult } from './refstore.js';

/**
 * The single-key writes of a RefStore, in terms of its `commit`.
 *
 * @example
 * class MyStore extends KeyWritesThroughCommit implements RefStore {
 *   async commit(changes: readonly Change[], options?: CommitOptions): Promise<WriteResult> { … }
 * }
 * await new MyStore().put('a.json', '{}', { ifMatch: null }); // commit([{ op: 'put', … }], { ifMatch: { 'a.json': null } })
 */
export abstract class KeyWritesThroughCommit {
  abstract commit(changes: readonly Change[], options?: CommitOptions): Promise<WriteResult>;

  put(key: string, value: Uint8Array | string, options?: KeyWriteOptions): Promise<WriteResult> {
    return this.writeKey('put', { op: 'put', key, value }, options);
  }

  delete(key: string, options?: KeyWriteOptions): Promise<WriteResult> {
    return this.writeKey('delete', { op: 'delete', key }, options);
  }

  /** One key's change as a commit; a store that names the operation in its errors overrides this. */
  protected writeKey(
    _operation: 'put' | 'delete',
    change: Change,
    options: KeyWriteOptions | undefined,
  ): Promise<WriteResult> {
    return this.commit([change], keyWriteToCommit(change.key, options));
  }
}
