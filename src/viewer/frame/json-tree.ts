/**
 * JSON drawn as a collapsible tree of `<details>` (keyboard: Tab to a summary, Enter/Space opens it),
 * built with text nodes only. Children of a closed node are drawn when it is first opened, and at most
 * `maxChildren` per object or array are drawn (the rest is counted), so a large file stays cheap.
 */
import { h } from '../dom.js';

export interface JsonTreeOptions {
  /** Levels open at first (default 2). */
  openDepth?: number;
  /** Entries drawn per object or array (default 500); the rest is said as a count. */
  maxChildren?: number;
}

/**
 * A tree element for a parsed JSON value.
 *
 * @example
 * root.append(jsonTree(JSON.parse(text), { openDepth: 1 }));
 */
export function jsonTree(value: unknown, options: JsonTreeOptions = {}): HTMLElement {
  const opts = { openDepth: options.openDepth ?? 2, maxChildren: options.maxChildren ?? 500 };
  return h('div', { class: 'json-tree' }, node(null, value, 0, opts));
}

function node(label: string | null, value: unknown, depth: number, opts: Required<JsonTreeOptions>): HTMLElement {
  const name = label === null ? null : h('span', { class: 'json-key', text: label });
  if (value === null || typeof value !== 'object') {
    return h('div', { class: 'json-leaf' }, name, name && ': ', scalar(value));
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const kind = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  const details = h(
    'details',
    { class: 'json-node' },
    h('summary', null, name, name && ' ', h('span', { class: 'json-kind', text: kind })),
  );
  const body = h('div', { class: 'json-children' });
  details.append(body);
  let drawn = false;
  const draw = () => {
    if (drawn) return;
    drawn = true;
    for (const [k, v] of entries.slice(0, opts.maxChildren)) body.append(node(k, v, depth + 1, opts));
    if (entries.length > opts.maxChildren) {
      body.append(h('p', { class: 'json-more', text: `… ${entries.length - opts.maxChildren} more not drawn` }));
    }
  };
  details.addEventListener('toggle', () => {
    if (details.open) draw();
  });
  if (depth < opts.openDepth) {
    details.open = true;
    draw();
  }
  return details;
}

function scalar(value: unknown): HTMLElement {
  const kind = value === null ? 'null' : typeof value;
  return h('span', { class: `json-${kind}`, text: typeof value === 'string' ? JSON.stringify(value) : String(value) });
}
