/**
 * The cache backend seam: a byte-bounded key-value store. The memory backend (default) is an LRU;
 * the IndexedDB backend (browser issue) implements the same interface. Values are structured-clone
 * friendly (plain objects, arrays, strings, numbers, Uint8Array) so any backend can persist them.
 */

/** A cache backend. Every method may be sync or async; callers always await. */
export interface CacheBackend {
  get(key: string): Promise<unknown> | unknown;
  /** Store `value`; `sizeBytes` is the caller's estimate of its footprint (drives eviction). */
  set(key: string, value: unknown, sizeBytes: number): Promise<void> | void;
  delete(key: string): Promise<void> | void;
  /** Every entry (for diagnostics and the token-hygiene test). */
  entries(): Promise<Iterable<[string, unknown]>> | Iterable<[string, unknown]>;
}

/** Default bound of the memory cache: 64 MiB (commit, tree, blob and ref-tip entries together). */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

export interface MemoryCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

interface Node {
  key: string;
  value: unknown;
  size: number;
  prev: Node | null;
  next: Node | null;
}

/**
 * In-memory LRU bounded by `maxBytes`. `get`, `set` and `delete` are O(1): a `Map` finds the node,
 * a doubly linked list keeps recency (head = most recent, tail = next to evict). (Evicting through
 * `map.keys().next()` is not O(1) in V8: deleted slots at the front are scanned until a rehash.)
 * An entry larger than `maxBytes` is not stored at all (it would evict everything and then itself).
 *
 * @example
 * const cache = new MemoryCacheBackend({ maxBytes: 1024 * 1024 });
 * cache.set('k', new Uint8Array(10), 10);
 * cache.get('k'); // Uint8Array(10)
 */
export class MemoryCacheBackend implements CacheBackend {
  readonly maxBytes: number;
  private readonly map = new Map<string, Node>();
  private head: Node | null = null;
  private tail: Node | null = null;
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(options: { maxBytes?: number } = {}) {
    const max = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    if (!Number.isInteger(max) || max < 0) {
      throw new TypeError(`maxBytes must be a non-negative integer number of bytes, got ${String(options.maxBytes)}`);
    }
    this.maxBytes = max;
  }

  private unlink(n: Node): void {
    if (n.prev) n.prev.next = n.next;
    else this.head = n.next;
    if (n.next) n.next.prev = n.prev;
    else this.tail = n.prev;
    n.prev = null;
    n.next = null;
  }

  private pushFront(n: Node): void {
    n.next = this.head;
    n.prev = null;
    if (this.head) this.head.prev = n;
    this.head = n;
    if (!this.tail) this.tail = n;
  }

  get(key: string): unknown {
    const n = this.map.get(key);
    if (!n) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    if (this.head !== n) {
      this.unlink(n);
      this.pushFront(n);
    }
    return n.value;
  }

  set(key: string, value: unknown, sizeBytes: number): void {
    const size = Math.max(1, Math.ceil(sizeBytes));
    this.delete(key);
    if (size > this.maxBytes) return;
    const n: Node = { key, value, size, prev: null, next: null };
    this.map.set(key, n);
    this.pushFront(n);
    this.bytes += size;
    while (this.bytes > this.maxBytes && this.tail) {
      this.delete(this.tail.key);
      this.evictions++;
    }
  }

  delete(key: string): void {
    const n = this.map.get(key);
    if (!n) return;
    this.map.delete(key);
    this.unlink(n);
    this.bytes -= n.size;
  }

  /** Entries, most recently used first. */
  entries(): Iterable<[string, unknown]> {
    const out: [string, unknown][] = [];
    for (let n = this.head; n; n = n.next) out.push([n.key, n.value]);
    return out;
  }

  stats(): MemoryCacheStats {
    return {
      entries: this.map.size,
      bytes: this.bytes,
      maxBytes: this.maxBytes,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
    };
  }
}
