/**
 * Reading the tip a would-be commit builds on, for expectations — each read once per evaluation:
 * a type's key listing (keys and blob SHAs, never the documents), its index manifest, the index rows
 * that hold given values (only the parts those values sort into), and, when nothing cheaper answers,
 * every document of the type in bulk.
 */
import { InvalidResponse } from '../../core/errors.js';
import { readManyFrom } from '../../core/read-many.js';
import type { DeriveBase, RefStore } from '../../core/refstore.js';
import { decodeEnvelope } from '../envelope.js';
import { parseKey } from '../identity.js';
import { partFor, pathOfPart } from '../indexes/format.js';
import { type Manifest, manifestPath, parseManifest, parsePart, type Row } from '../indexes/index.js';
import { compareStored, type Stored } from '../indexes/values.js';
import { typeKey } from './fields.js';

type T = { namespace: string; type: string };

/**
 * The tip of one attempt, and the store to list and bulk-read it with.
 *
 * @example
 * const tip = new Tip(store, base); // base: the DeriveBase of the attempt
 * const keys = await tip.keys({ namespace: 'github', type: 'repo' });
 */
export class Tip {
  private readonly listings = new Map<string, Promise<Map<string, string>>>();
  private readonly manifests = new Map<string, Promise<Manifest | undefined>>();

  constructor(
    readonly store: Pick<RefStore, 'list' | 'get' | 'readMany'>,
    readonly base: Pick<DeriveBase, 'version' | 'read'>,
  ) {}

  get version(): string | null {
    return this.base.version;
  }

  /**
   * The type's documents at the tip: key → blob SHA (one listing of its keys; nothing is read).
   *
   * @example
   * const before = await tip.keys({ namespace: 'github', type: 'repo' }); // Map { 'github/repo/o/r.json' => 'ab12…' }
   */
  keys(t: T): Promise<Map<string, string>> {
    const k = typeKey(t);
    let got = this.listings.get(k);
    if (!got) {
      got = this.list(t);
      this.listings.set(k, got);
    }
    return got;
  }

  private async list(t: T): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (this.version === null) return out;
    const listed = await this.store.list({ prefix: `${t.namespace}/${t.type}/`, version: this.version });
    for (const e of listed.entries) {
      const id = parseKey(e.key);
      if (id && id.namespace === t.namespace && id.doc_type === t.type) out.set(e.key, e.blobSha);
    }
    return out;
  }

  /** The type's index manifest at the tip; undefined without an index (or with a damaged one: not trusted). */
  manifest(t: T): Promise<Manifest | undefined> {
    const k = typeKey(t);
    let got = this.manifests.get(k);
    if (!got) {
      got = this.readManifest(t);
      this.manifests.set(k, got);
    }
    return got;
  }

  private async readManifest(t: T): Promise<Manifest | undefined> {
    if (this.version === null) return undefined;
    const path = manifestPath(t.namespace, t.type);
    const bytes = (await this.base.read([path])).get(path)?.value;
    if (!bytes) return undefined;
    try {
      return parseManifest(bytes, t.namespace, t.type);
    } catch (e) {
      if (e instanceof InvalidResponse) return undefined;
      throw e;
    }
  }

  /**
   * The scalar rows of `field`'s run whose value equals one of `keys`: only the parts those values sort
   * into are read, in one batched read. Undefined when the index cannot answer (no run of that field, or a
   * part that does not parse): the caller falls back to a listing or a read of the type.
   *
   * @example
   * const rows = await tip.rowsWith(manifest, 'id', ['o/a', 'o/b']);
   */
  async rowsWith(m: Manifest, field: string, keys: readonly Stored[]): Promise<Row[] | undefined> {
    const fi = m.fields.indexOf(field);
    if (fi < 0) return undefined;
    const run = m.runs[fi]!;
    const parts = new Set<number>();
    for (const key of keys) {
      let i = partFor(run, { key, id: '' });
      parts.add(i);
      // Rows of one value may continue into the next parts (a separator is a bound: [value, id]).
      while (i + 1 < run.parts.length && compareStored(run.parts[i + 1]!.lower![0], key) === 0) parts.add(++i);
    }
    const paths = [...parts].map((i) => ({ i, path: pathOfPart(m, fi, i) }));
    const got = await this.base.read(paths.map((p) => p.path));
    try {
      return paths.flatMap(({ i, path }) => {
        const bytes = got.get(path)?.value;
        if (!bytes) throw new InvalidResponse(`index part ${path} is missing`, { key: path });
        return parsePart(m, fi, i, bytes).filter((r) => !r.element && keys.some((k) => compareStored(r.key, k) === 0));
      });
    } catch (e) {
      if (e instanceof InvalidResponse) return undefined;
      throw e;
    }
  }

  /**
   * Every document of the type at the tip but `skip` (the write's own keys), in bulk (a listing, then the
   * store's bulk read): the costly answer, for `unique` on a field the type's index does not hold.
   */
  async *documents(t: T, skip: ReadonlySet<string>): AsyncGenerator<{ key: string; id: string; data: unknown }> {
    if (this.version === null) return;
    const keys = [...(await this.keys(t)).keys()].filter((k) => !skip.has(k));
    for await (const item of readManyFrom(this.store as RefStore, keys, { version: this.version })) {
      if (!item.value) continue;
      const env = decodeEnvelope(item.value, this.version);
      yield { key: item.key, id: env.id, data: env.data };
    }
  }
}
