/**
 * Schema violations of a write, as the contract shapes them (issue 38): every document that breaks its
 * type's schema is checked, the first {@link MAX_LISTED_VIOLATIONS} violations are kept with the count of
 * all, and the write fails with ONE `InvalidDocument` (`data.field = 'data'`, `data.violations`,
 * `data.count`) before anything is written. A violation names the key, the JSON pointer inside the document
 * (`/data/stars`), the rule and the JSON type found — never a value (it may be a secret).
 */
import { InvalidConfig, InvalidDocument } from '../../core/errors.js';
import type { CompiledSchema } from './compile.js';

/** Violations listed in an error; `count` says how many there were in all. */
export const MAX_LISTED_VIOLATIONS = 50;

/** One document's break of its type's schema. */
export interface SchemaViolation {
  key: string;
  /** JSON pointer inside the document: `/data` for the data itself, `/data/stars`, `/data/labels/0`. */
  pointer: string;
  rule: string;
  expected?: string;
  found: string;
}

/**
 * The violations of one write (or one scan), bounded: the first 50 and the count.
 *
 * @example
 * const v = new Violations();
 * v.check('github/repo/o/r.json', compiled, { stars: 'many' });
 * v.throwIfAny(); // InvalidDocument: github/repo/o/r.json /data/stars breaks "type" (found string); 1 violation
 */
export class Violations {
  readonly listed: SchemaViolation[] = [];
  count = 0;

  /** Check one document's data against its type's compiled schema. */
  check(key: string, schema: CompiledSchema, data: unknown): void {
    for (const p of schema.validate(data)) {
      this.count++;
      if (this.listed.length >= MAX_LISTED_VIOLATIONS) continue;
      const v: SchemaViolation = { key, pointer: `/data${p.pointer}`, rule: p.rule, found: p.found };
      if (p.expected !== undefined) v.expected = p.expected;
      this.listed.push(v);
    }
  }

  /** A copy to go on from (a derive hook's attempt starts from what the parts already found). */
  copy(): Violations {
    const c = new Violations();
    for (const v of this.listed) c.listed.push(v);
    c.count = this.count;
    return c;
  }

  /** The write's error: `InvalidDocument` naming the first violation and the count. */
  throwIfAny(): void {
    if (this.count === 0) return;
    throw new InvalidDocument('data', `${describe(this.listed[0]!)}; ${countText(this.count)}, nothing was written`, {
      violations: this.listed,
      count: this.count,
    });
  }

  /**
   * A declaration refused because documents already in the section break it: `InvalidConfig` naming the
   * schema's field, with the same `violations` and `count`, and the way past it.
   */
  throwForDeclaration(field: string, type: string): void {
    if (this.count === 0) return;
    throw new InvalidConfig(
      field,
      `documents of ${type} already in the section break this schema: ${describe(this.listed[0]!)}; ${countText(this.count)}. Fix them (or migrate), or declare with force; nothing was written`,
      { violations: this.listed, count: this.count },
    );
  }
}

function describe(v: SchemaViolation): string {
  const expected = v.expected !== undefined ? `, expected ${v.expected}` : '';
  return `${v.key} ${v.pointer} breaks "${v.rule}" (found ${v.found}${expected})`;
}

function countText(n: number): string {
  return n === 1 ? '1 violation' : `${n} violations in all (the first ${Math.min(n, MAX_LISTED_VIOLATIONS)} listed)`;
}
