/**
 * Building DOM without HTML strings. Everything the viewer shows comes from a section or a source and is
 * untrusted: text goes in as text nodes (never innerHTML), and only links the viewer builds itself
 * (GitHub commit pages, its own `?…` URLs) become hrefs — see `safeHref`.
 */

type Child = Node | string | number | null | undefined | false;
type Props = {
  class?: string;
  text?: string;
  attrs?: Record<string, string | number | boolean | undefined>;
  dataset?: Record<string, string>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
};

/**
 * Create an element with props and children (strings become text nodes).
 *
 * @example
 * h('button', { class: 'primary', attrs: { type: 'button' }, on: { click: go } }, 'Open');
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props?.class) node.className = props.class;
  if (props?.text !== undefined) node.textContent = props.text;
  for (const [name, value] of Object.entries(props?.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    if (/^on/i.test(name)) throw new Error(`h(): event attribute "${name}" is not allowed; use props.on`);
    node.setAttribute(name, value === true ? '' : String(value));
  }
  if (props?.dataset) Object.assign(node.dataset, props.dataset);
  for (const [event, handler] of Object.entries(props?.on ?? {})) {
    node.addEventListener(event, handler as EventListener);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/**
 * An href only for a relative `?…` link of the viewer or an https/http URL the viewer built; anything else
 * (`javascript:`, `data:`, a relative path) is refused with `undefined`.
 *
 * @example
 * h('a', { attrs: { href: safeHref(url) } }, 'commit');
 */
export function safeHref(url: string): string | undefined {
  if (url.startsWith('?')) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** Remove every child of `node`. */
export function clear(node: Element): void {
  while (node.firstChild) node.firstChild.remove();
}
