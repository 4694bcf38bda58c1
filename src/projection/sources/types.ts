/**
 * What a source reader takes and gives: the client it talks to GitHub through, and the pages of items it
 * yields. A leaf module of types: the readers, the budget and the runner all depend on it, and it on
 * nothing, so none of them need to import each other for a type.
 */

/** The part of an Octokit instance the sources use (`@octokit/rest`'s `Octokit` satisfies it). */
export interface SourceClient {
  request(
    route: string | { method: string; url: string },
    params?: Record<string, unknown>,
  ): Promise<{ status: number; headers: Record<string, unknown>; data: unknown }>;
  /** GraphQL (Octokit's `graphql`): resolves to `data`, throws a GraphqlResponseError when `errors` came back. */
  graphql?(query: string, variables?: Record<string, unknown>): Promise<unknown>;
}

/** One source item, ready for a reducer. */
export interface SourceItem {
  /** Repository the item came from, `owner/name`. */
  repository: string;
  /** Values for the identity template (`{owner}`, `{name}`, `{repo}`, `{number}`, `{tag}`, `{id}`…). */
  vars: Record<string, string | number>;
  /** The item as GitHub returned it (for `repository`: `{ repository, branches }`). */
  item: unknown;
  /** `updated_at` when the source has one (drives the incremental watermark). */
  updatedAt?: string;
  /** False when the item no longer matches the source filter (seen in an incremental run, e.g. an issue closed
   * while `state: open`): its document is removed when the projection prunes. */
  matches: boolean;
}

export interface SourcePage {
  /** What the page was read from, for progress lines: a repository, `owner/*`, a URL or a file. */
  repository: string;
  /** 1-based page number within this repository. */
  page: number;
  items: SourceItem[];
  /**
   * Set when the page was read conditionally (see conditional.ts): `key` is its endpoint key, whose ETags and
   * produced document keys are stored; `notModified` means a 304 — `items` is empty and the documents the
   * previous run produced from this page are unchanged.
   */
  conditional?: { key: string; notModified?: boolean };
}
