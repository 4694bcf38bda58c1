/** The accumulators `buildReview` streams the documents through, each with a bound on what it keeps. */

import { type ChangedField, shownValue } from './field-diff.js';
import { MAX_FIELD_CHANGES, MAX_KEY, MAX_ROW_FIELDS, MAX_STRING, MAX_TRACKED_FIELDS } from './limits.js';
import { cut } from './markdown.js';
import type { FieldChange, ReviewDocument, ReviewRow, TypeTotals } from './types.js';

const typeId = (namespace: string, type: string) => `${namespace}\u0000${type}`;
const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Added, modified and removed counts per (namespace, type). */
export class Totals {
  private readonly byType = new Map<string, TypeTotals>();

  add(doc: ReviewDocument): void {
    const id = typeId(doc.namespace, doc.type);
    let t = this.byType.get(id);
    if (!t) {
      t = {
        namespace: cut(doc.namespace, MAX_STRING),
        type: cut(doc.type, MAX_STRING),
        added: 0,
        modified: 0,
        removed: 0,
      };
      this.byType.set(id, t);
    }
    t[doc.change]++;
  }

  /** Every type, in (namespace, type) order. */
  list(): TypeTotals[] {
    return [...this.byType.values()].sort((a, b) =>
      byKey({ key: typeId(a.namespace, a.type) }, { key: typeId(b.namespace, b.type) }),
    );
  }
}

/** How many documents changed each (type, field), with the first key in key order as the sample. */
export class FieldCounter {
  private readonly fields = new Map<string, FieldChange>();
  /** Changed fields not counted because MAX_TRACKED_FIELDS distinct ones were already counted. */
  untracked = 0;

  add(doc: ReviewDocument, changes: readonly ChangedField[]): void {
    for (const c of changes) {
      const id = `${typeId(doc.namespace, doc.type)}\u0000${c.path}`;
      const known = this.fields.get(id);
      if (known) {
        known.documents++;
        // The sample is the smallest key: the values are shown only when it is replaced.
        if (doc.key < known.sample.key) known.sample = this.sample(doc, c);
      } else if (this.fields.size < MAX_TRACKED_FIELDS) {
        this.fields.set(id, {
          namespace: cut(doc.namespace, MAX_STRING),
          type: cut(doc.type, MAX_STRING),
          field: cut(c.path, MAX_STRING),
          documents: 1,
          sample: this.sample(doc, c),
        });
      } else this.untracked++;
    }
  }

  private sample(doc: ReviewDocument, c: ChangedField): FieldChange['sample'] {
    return { key: doc.key, before: shownValue(c.before), after: shownValue(c.after) };
  }

  /** The fields changed in the most documents (ties: by type, then field). */
  top(): FieldChange[] {
    const all = [...this.fields.values()].sort(
      (a, b) =>
        b.documents - a.documents ||
        byKey({ key: typeId(a.namespace, a.type) }, { key: typeId(b.namespace, b.type) }) ||
        byKey({ key: a.field }, { key: b.field }),
    );
    return all
      .slice(0, MAX_FIELD_CHANGES)
      .map((f) => ({ ...f, sample: { ...f.sample, key: cut(f.sample.key, MAX_KEY) } }));
  }
}

/**
 * The first `limit` rows in key order, from documents in any order: rows are collected and, whenever twice
 * the limit is reached, sorted and cut back — memory stays at 2 × limit rows, whatever the count.
 */
export class FirstRows {
  private rows: ReviewRow[] = [];
  count = 0;
  constructor(private readonly limit: number) {}

  add(doc: ReviewDocument, changes: readonly ChangedField[]): void {
    this.count++;
    const fields = changes.slice(0, MAX_ROW_FIELDS).map((c) => cut(c.path, MAX_STRING));
    this.rows.push({
      key: cut(doc.key, MAX_KEY),
      change: doc.change,
      projection: cut(doc.projection, MAX_STRING),
      fields,
    });
    if (this.rows.length >= 2 * this.limit) this.trim();
  }

  private trim(): void {
    this.rows.sort(byKey);
    this.rows.length = Math.min(this.rows.length, this.limit);
  }

  list(): ReviewRow[] {
    this.trim();
    return this.rows;
  }
}
