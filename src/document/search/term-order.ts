/**
 * A build's terms in code-unit order (the order shard lines are stored in), sorted as numbers: a
 * comparator sort of ~47,000 strings was a tenth of a 10,000-document build (issue 42: the first write
 * with search ≤ 1.3× the CPU without).
 *
 * Each term becomes one exact float: a key from its first few code units, then its id. The native
 * numeric sort orders the keys; terms sharing a key (a run) are then ordered by comparing strings, each
 * run alone — a few dozen terms, not all of them.
 */

/** Bits of a key per code unit: ASCII, with 127 standing for "127 or above". */
const UNIT_BITS = 7;
const UNIT_CAP = (1 << UNIT_BITS) - 1;
/** Integers are exact in a float up to 2^53. */
const EXACT_BITS = 53;

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Code units a key holds when ids take `idBits`: as many as fit beside the id in an exact float.
 *
 * @example
 * prefixUnits(16); // 5
 */
export function prefixUnits(idBits: number): number {
  return Math.max(0, Math.floor((EXACT_BITS - idBits) / UNIT_BITS));
}

/**
 * The key of `term`: its first `units` code units, 7 bits each, a missing one 0. A unit of 127 or more
 * counts as 127 and ends the key (the rest are 0), so keys never disagree with code-unit order: two terms
 * either get keys in their order or the same key, sorted later by comparing them.
 */
function keyOf(term: string, units: number): number {
  let key = 0;
  let open = true;
  for (let i = 0; i < units; i++) {
    const c = open && i < term.length ? Math.min(term.charCodeAt(i), UNIT_CAP) : 0;
    if (c === UNIT_CAP) open = false;
    key = key * (UNIT_CAP + 1) + c;
  }
  return key;
}

/**
 * The ids of `terms` in code-unit order of the terms (`<`). Terms must be distinct. `units` (code units
 * per key) is for tests; any value gives the same answer.
 *
 * @example
 * termOrder(['to', 'be', 'or']); // Int32Array [1, 2, 0]
 */
export function termOrder(terms: readonly string[], units?: number): Int32Array {
  const n = terms.length;
  const idSpace = 2 ** Math.max(1, Math.ceil(Math.log2(n + 1)));
  const u = units ?? prefixUnits(Math.log2(idSpace));
  const keyed = new Float64Array(n);
  for (let id = 0; id < n; id++) keyed[id] = keyOf(terms[id]!, u) * idSpace + id;
  keyed.sort();
  const order = new Int32Array(n);
  for (let r = 0; r < n; r++) order[r] = keyed[r]! % idSpace;
  sortRuns(terms, keyed, order, idSpace);
  return order;
}

/** Order each run of ids whose terms share a key by comparing the terms. */
function sortRuns(terms: readonly string[], keyed: Float64Array, order: Int32Array, idSpace: number): void {
  const keyAt = (r: number) => Math.floor(keyed[r]! / idSpace);
  let from = 0;
  for (let r = 1; r <= order.length; r++) {
    if (r < order.length && keyAt(r) === keyAt(from)) continue;
    if (r - from > 1) order.subarray(from, r).sort((a, b) => byCodeUnits(terms[a]!, terms[b]!));
    from = r;
  }
}
