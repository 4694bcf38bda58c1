/**
 * A query's answer checked against what it read (issue 37 item 5). Index files are untrusted: a row whose
 * values were rewritten (its blob SHA kept) would put a document on the page that does not match, or in
 * the wrong place; a row removed would silently drop a document. So:
 * - every document a query returns is checked against the `where` clauses and the order (and the cursor it
 *   follows), from its own data — a mismatch is `InvalidResponse`, never a silently wrong row;
 * - the rows read must agree with the manifest's document count: all of them when every part of the run
 *   was read, at most that many otherwise.
 * Rows without documents (`fields` given) are the index's word: SECURITY.md says so.
 */
import { InvalidResponse } from '../core/errors.js';
import type { Envelope } from './envelope.js';
import { matches, pageOrder, sortValue } from './indexes/evaluate.js';
import type { Manifest } from './indexes/format.js';
import { decodeCursor, type IndexQuery } from './indexes/query.js';
import type { Row } from './indexes/rows.js';
import { storedValue } from './indexes/values.js';

function rebuild(m: { namespace: string; type: string }, why: string, data: Record<string, unknown>): InvalidResponse {
  return new InvalidResponse(
    `the index of ${m.namespace}/${m.type} ${why}; the index must be rebuilt (declareIndexes)`,
    data,
  );
}

/**
 * Refuse rows that disagree with the manifest's count of documents: every document has a row in every
 * run, so a whole run read holds exactly `count` distinct ids, and part of one at most that many.
 *
 * @example
 * checkCount(manifest, rows, true); // throws InvalidResponse when a row was removed or added
 */
export function checkCount(m: Manifest, rows: readonly Row[], whole: boolean): void {
  const ids = new Set<string>();
  for (const r of rows) ids.add(r.id);
  if (whole ? ids.size !== m.count : ids.size > m.count) {
    throw rebuild(m, `counts ${m.count} documents, but its rows ${whole ? 'name' : 'already name'} ${ids.size}`, {
      count: m.count,
      rows: ids.size,
    });
  }
}

/**
 * Check each returned document, from its own data, against the `where` clauses, and the page's order
 * (after the cursor): `InvalidResponse` naming the document when the index said otherwise.
 *
 * @example
 * checkDocuments(query, envelopes); // throws InvalidResponse when a tampered row put a document here
 */
export function checkDocuments(q: IndexQuery, docs: readonly Envelope<unknown>[]): void {
  const desc = q.orderBy?.direction === 'desc';
  const order = pageOrder(desc);
  let previous = q.cursor === undefined ? undefined : decodeCursor(q, q.cursor);
  for (const d of docs) {
    for (const w of q.where ?? []) {
      if (matches(storedValue(d.id, d.data, w.field, true), w) !== true) {
        throw rebuild(
          q,
          `returned ${JSON.stringify(d.id)}, whose document does not match ${w.field} ${w.op} ${JSON.stringify(w.value)}`,
          { id: d.id, field: w.field },
        );
      }
    }
    const here = {
      sort: q.orderBy ? sortValue(storedValue(d.id, d.data, q.orderBy.field, true), desc) : null,
      id: d.id,
    };
    if (previous && order(previous, here) >= 0) {
      throw rebuild(
        q,
        `returned ${JSON.stringify(d.id)} out of order (its document sorts before the row ahead of it)`,
        { id: d.id },
      );
    }
    previous = here;
  }
}
