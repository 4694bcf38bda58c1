/**
 * Names an export gives things that come from the section (tables, files, columns). Namespaces, types and field
 * names are untrusted data, so each export keeps its names unique as its reader compares them: SQLite compares
 * identifiers without regard to ASCII case, and so do the file systems of macOS and Windows, so `a_b` from
 * namespace `a` type `b`, and from namespace `a_b`… get `_2`, `_3`. Shared by the SQLite and Parquet exports.
 */

/** ASCII case folded: how SQLite (and a case-insensitive file system) compares names. */
export const fold = (name: string) => name.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The set of names taken in one output, compared with ASCII case folded. */
export class NameSet {
  private readonly taken = new Set<string>();

  /**
   * @param names taken from the start.
   * @param reserved names (given folded) no claim may take, besides the taken ones.
   */
  constructor(
    names: Iterable<string> = [],
    private readonly reserved: (folded: string) => boolean = () => false,
  ) {
    for (const n of names) this.add(n);
  }

  has(name: string): boolean {
    return this.taken.has(fold(name));
  }

  add(name: string): void {
    this.taken.add(fold(name));
  }

  /**
   * `base`, or `base_2`, `base_3`… — the first that neither this set nor `also(candidate)` holds; taken.
   *
   * @example
   * names.claim('github_repo', (t) => [`${t}_versions`]); // 'github_repo' (and its versions table is free too)
   */
  claim(base: string, also: (candidate: string) => readonly string[] = () => []): string {
    for (let i = 1; ; i++) {
      const candidate = i === 1 ? base : `${base}_${i}`;
      const all = [candidate, ...also(candidate)];
      if (all.some((n) => this.has(n) || this.reserved(fold(n)))) continue;
      for (const n of all) this.add(n);
      return candidate;
    }
  }
}
