/**
 * Collecting a write's documents for its expectations while the write goes by: a commit's operations,
 * or a commit in parts' changes as they stream (only documents of a type with expectations are decoded,
 * and only the values its expectations name are kept: fields.ts).
 */
import type { Change } from '../../core/refstore.js';
import type { DocumentOp } from '../document-types.js';
import { parseKey } from '../identity.js';
import { type ExpectOp, expectOp, type Keep, keepOf, typeKey } from './fields.js';
import type { TypeExpectations } from './types.js';

/**
 * The documents of a write of types that have expectations.
 *
 * @example
 * const seen = new ExpectCollector(expect);
 * await commitInParts(store, seen.collect(parts), { derive });
 * seen.ops; // what expectHook evaluates
 */
export class ExpectCollector {
  readonly ops: ExpectOp[] = [];
  private readonly keep: Map<string, Keep>;

  constructor(
    entries: readonly TypeExpectations[],
    private readonly dataOf?: (key: string) => unknown,
  ) {
    this.keep = keepOf(entries);
  }

  /** Take a commit's operations (already turned into `changes`, index for index). */
  takeOps(ops: readonly DocumentOp[], changes: readonly Change[]): void {
    ops.forEach((o, i) => {
      const key = changes[i]!.key;
      if (o.op === 'put') this.add(o.document.namespace, o.document.type, o.document.id, key, () => o.document.data);
      else if (o.op === 'delete') this.add(o.identity.namespace, o.identity.doc_type, o.identity.id, key, undefined);
    });
  }

  /** Pass a commit's parts through, taking their documents. */
  async *collect(parts: AsyncIterable<readonly Change[]> | Iterable<readonly Change[]>): AsyncGenerator<Change[]> {
    for await (const part of parts) {
      for (const c of part) this.takeChange(c);
      yield part as Change[];
    }
  }

  private takeChange(c: Change): void {
    const id = parseKey(c.key);
    if (!id) return;
    const data =
      c.op === 'delete'
        ? undefined
        : () => (this.dataOf ? this.dataOf(c.key) : (JSON.parse(text(c.value)) as { data: unknown }).data);
    this.add(id.namespace, id.doc_type, id.id, c.key, data);
  }

  private add(namespace: string, type: string, id: string, key: string, data: (() => unknown) | undefined): void {
    const keep = this.keep.get(typeKey({ namespace, type }));
    if (!keep) return;
    this.ops.push(expectOp({ namespace, type, id, key }, data?.(), keep, data === undefined));
  }
}

function text(v: Uint8Array | string): string {
  return typeof v === 'string' ? v : new TextDecoder().decode(v);
}
