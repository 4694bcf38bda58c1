/**
 * A JSON value as a collapsible tree: one `<details>`/`<summary>` per object and array (the browser makes
 * them keyboard-usable: Tab to a summary, Enter or Space to open or close it), scalars as text. Values come
 * from a section and are untrusted: everything goes in as text nodes (h()). A closed node builds its
 * children only when first opened, so a document with a 10,000-element array costs nothing until asked.
 */
import { h } from '../dom.js';

/** Levels open from the start (the envelope, `data` and its fields; deeper levels on request). */
const OPEN_LEVELS = 3;

type Kind = 'object' | 'array' | 'scalar';

function kindOf(v: unknown): Kind {
  if (Array.isArray(v)) return 'array';
  return v !== null && typeof v === 'object' ? 'object' : 'scalar';
}

/** A scalar as JSON text, with a class per JSON type (strings keep their quotes: `"1"` is not `1`). */
function scalar(value: unknown): HTMLElement {
  const type = value === null ? 'null' : typeof value;
  return h('span', { class: `json-${type}` }, JSON.stringify(value) ?? String(value));
}

function summaryText(value: unknown): string {
  if (Array.isArray(value)) return `[ ${value.length} item${value.length === 1 ? '' : 's'} ]`;
  const n = Object.keys(value as object).length;
  return `{ ${n} field${n === 1 ? '' : 's'} }`;
}

function entriesOf(value: unknown): [string, unknown][] {
  return Array.isArray(value)
    ? value.map((v, i) => [`[${i}]`, v] as [string, unknown])
    : Object.entries(value as Record<string, unknown>);
}

function node(label: string | null, value: unknown, depth: number): HTMLElement {
  const name = label === null ? null : h('span', { class: 'json-key' }, label);
  if (kindOf(value) === 'scalar') return h('li', null, name, name && ': ', scalar(value));
  const list = h('ul', { class: 'json-children' });
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    for (const [k, v] of entriesOf(value)) list.append(node(k, v, depth + 1));
  };
  const details = h(
    'details',
    { attrs: { open: depth < OPEN_LEVELS }, on: { toggle: build } },
    h('summary', null, name, name && ' ', h('span', { class: 'json-count' }, summaryText(value))),
    list,
  );
  if (depth < OPEN_LEVELS) build();
  return h('li', null, details);
}

/**
 * The tree of `value` in a labelled list.
 *
 * @example
 * root.append(jsonTree(envelope, 'Document'));
 */
export function jsonTree(value: unknown, label: string): HTMLElement {
  return h('ul', { class: 'json-tree', attrs: { 'aria-label': label } }, node(null, value, 0));
}
