/**
 * A field diff (src/viewer/diff.ts) as a list people read on any width: one line per field with its path,
 * what happened (added, removed, changed) in words as well as colour, and the values before and after as
 * text. Long diffs show their first `cap` fields and say how many more there are.
 */
import { diffValues, type FieldChange, formatPath, preview } from '../diff.js';
import { h } from '../dom.js';

/** Fields listed per diff before "and N more". */
export const FIELD_CAP = 200;

/**
 * What is compared: the stored document (`namespace`, `type`, `id`, `data`); the envelope's `version` is
 * the commit it was read at, which always differs and is not content.
 *
 * @example
 * const changes = documentChanges(olderEnvelope, newerEnvelope);
 */
export function documentChanges(before: unknown, after: unknown): FieldChange[] {
  return diffValues(withoutVersion(before), withoutVersion(after));
}

function withoutVersion(envelope: unknown): unknown {
  if (envelope === null || typeof envelope !== 'object') return envelope;
  const { version: _version, ...stored } = envelope as Record<string, unknown>;
  return stored;
}

function line(change: FieldChange): HTMLElement {
  const path = formatPath(change.path);
  return h(
    'li',
    { class: `change change-${change.kind}`, dataset: { kind: change.kind, path } },
    h('code', { class: 'change-path' }, path),
    ' ',
    h('span', { class: 'change-kind' }, change.kind),
    change.kind !== 'added' &&
      h('span', { class: 'change-before' }, h('span', { class: 'sr' }, 'before: '), preview(change.before)),
    change.kind === 'changed' && h('span', { class: 'change-arrow', attrs: { 'aria-hidden': 'true' } }, ' → '),
    change.kind !== 'removed' &&
      h('span', { class: 'change-after' }, h('span', { class: 'sr' }, 'after: '), preview(change.after)),
  );
}

/**
 * The list of `changes`, at most `cap` lines, with a sentence for none and for the rest.
 *
 * @example
 * root.append(fieldDiff(documentChanges(a, b)));
 */
export function fieldDiff(changes: readonly FieldChange[], cap = FIELD_CAP): HTMLElement {
  if (changes.length === 0) return h('p', { class: 'field-diff-none' }, 'No field differs between these versions.');
  const shown = changes.slice(0, cap);
  return h(
    'div',
    { class: 'field-diff' },
    h('ul', { class: 'changes' }, ...shown.map(line)),
    changes.length > cap &&
      h('p', { class: 'field-diff-more' }, `… and ${changes.length - cap} more changed field(s), not listed.`),
  );
}
