/**
 * Every paged read is bounded: a listing may not visit the same page (URL or GraphQL cursor) twice — a
 * `Link: rel="next"` back at a page already read would otherwise loop forever — and may not read more than
 * `max-pages` pages (a spec field of the GitHub sources; default {@link DEFAULT_MAX_PAGES}). Both stop the
 * run with nothing committed, naming the listing.
 */
import { InvalidResponse } from '../../core/errors.js';
import { SOURCE_OPERATION } from './source-error.js';

/** Default most pages one listing may read: 100,000 items at 100 per page. */
export const DEFAULT_MAX_PAGES = 1000;

/**
 * The pages one listing has read.
 *
 * @example
 * const walk = new PageWalk(1000, 'GET /repos/o/r/issues');
 * walk.visit('/repos/o/r/issues?page=1'); // ok
 * walk.visit('/repos/o/r/issues?page=1'); // throws: the listing points back at a page it read
 */
export class PageWalk {
  private readonly seen = new Set<string>();

  constructor(
    private readonly maxPages: number,
    /** The listing, for messages. */
    private readonly what: string,
  ) {}

  /** Whether the page at `position` was read already. */
  has(position: string): boolean {
    return this.seen.has(position);
  }

  /** Call before reading the page at `position` (a URL or a cursor; '' for the first page of a cursor walk). */
  visit(position: string): void {
    if (this.seen.has(position)) {
      throw new InvalidResponse(
        `${this.what}: the pagination points back at a page already read (${position || 'the first page'}); refusing to loop`,
        { operation: SOURCE_OPERATION, reason: 'pagination-loop', page: position },
      );
    }
    if (this.seen.size >= this.maxPages) {
      throw new InvalidResponse(
        `${this.what}: more than ${this.maxPages} pages; stopped (nothing is committed). If the listing really is that long, raise "max-pages" on the source in the projection spec`,
        { operation: SOURCE_OPERATION, reason: 'too-many-pages', field: 'max-pages', limit: this.maxPages },
      );
    }
    this.seen.add(position);
  }
}
