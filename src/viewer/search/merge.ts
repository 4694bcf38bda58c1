/**
 * One ranked list from several searches (pure): the section's search box searches every namespace that
 * declares search, one `client.search` per namespace (the library searches one namespace at a time), and
 * shows their hits as ONE list, best first — ties by (namespace, type, id), as the library orders its own.
 * Each namespace's hits arrive a page at a time (its `nextCursor`); a hit is shown only once every
 * namespace that may still hold a better one has a page in hand, so "More results" never reorders what is
 * on screen and never skips a hit.
 */

/** What the merge needs of a hit. */
export interface RankedItem {
  namespace: string;
  type: string;
  id: string;
  score: number;
}

/** One page of one scope's search. */
export interface ScopePage<H extends RankedItem> {
  hits: readonly H[];
  total: number;
  nextCursor: string | null;
  /** Requests the page cost (the library's `requests`). */
  requests?: number;
}

/** Reads one page of one scope (a namespace, or a type): `cursor` undefined for the first. */
export type ReadPage<H extends RankedItem> = (scope: number, cursor: string | undefined) => Promise<ScopePage<H>>;

/**
 * The library's order: score descending, then namespace, type and id ascending.
 *
 * @example
 * hits.sort(rankOrder);
 */
export function rankOrder(a: RankedItem, b: RankedItem): number {
  if (a.score !== b.score) return b.score - a.score;
  for (const k of ['namespace', 'type', 'id'] as const) {
    if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  }
  return 0;
}

interface ScopeState<H> {
  buffer: H[];
  /** undefined: not read yet; null: every page read. */
  cursor: string | null | undefined;
  total: number;
}

/**
 * The merged hits of `scopes` searches, `pageSize` at a time.
 *
 * @example
 * const merged = new MergedSearch(2, (i, cursor) => client.search(q, { namespace: nss[i], cursor, limit: 10 }), 10);
 * const first = await merged.next();
 */
export class MergedSearch<H extends RankedItem> {
  private readonly states: ScopeState<H>[];
  /** Requests every page read so far cost. */
  requests = 0;

  constructor(
    scopes: number,
    private readonly read: ReadPage<H>,
    private readonly pageSize: number,
  ) {
    this.states = Array.from({ length: scopes }, () => ({ buffer: [], cursor: undefined, total: 0 }));
  }

  /** Matching documents in all scopes (known once each scope's first page is read). */
  get total(): number {
    return this.states.reduce((n, s) => n + s.total, 0);
  }

  /** Whether every hit has been returned by {@link next}. */
  get done(): boolean {
    return this.states.every((s) => s.cursor === null && s.buffer.length === 0);
  }

  /** The next `pageSize` hits in rank order (fewer at the end; none once {@link done}). */
  async next(): Promise<H[]> {
    const out: H[] = [];
    while (out.length < this.pageSize) {
      await this.fill();
      let best: ScopeState<H> | undefined;
      for (const s of this.states) {
        const head = s.buffer[0];
        if (head && (!best || rankOrder(head, best.buffer[0] as H) < 0)) best = s;
      }
      if (!best) break;
      out.push(best.buffer.shift() as H);
    }
    return out;
  }

  /** Read the next page of every scope whose buffer is empty and that has more (in parallel). */
  private async fill(): Promise<void> {
    const empty = this.states.flatMap((s, i) => (s.buffer.length === 0 && s.cursor !== null ? [i] : []));
    const pages = await Promise.all(empty.map((i) => this.read(i, this.states[i]?.cursor ?? undefined)));
    pages.forEach((page, k) => {
      const s = this.states[empty[k] as number] as ScopeState<H>;
      s.buffer.push(...page.hits);
      s.total = page.total;
      // A page with no hits ends the scope whatever its cursor says: never loop on an empty page.
      s.cursor = page.hits.length === 0 ? null : page.nextCursor;
      this.requests += page.requests ?? 0;
    });
  }
}
