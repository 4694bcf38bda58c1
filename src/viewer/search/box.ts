/**
 * The search box (a `role="search"` form): Enter searches (the words go in the URL as `q`, one history
 * entry), Escape clears (the field, and `q` when it is in the URL). Searching redraws the view; the box
 * that was typed in takes the focus back after the redraw, with the caret at the end, so a visitor can
 * refine the words without reaching for the mouse.
 */
import { h } from '../dom.js';

export interface SearchBoxOptions {
  /** The input's id (unique on the page). */
  id: string;
  /** The label: what the box searches ("Search the section", "Search github/repo"). */
  label: string;
  /** The placeholder: a hint of what to type. */
  placeholder: string;
  /** The words in the URL now (`q`), or ''. */
  value: string;
  /** Enter (or the button) with the words typed; '' when the field was emptied. */
  search(q: string): void;
}

/** The id of the box to focus again after the redraw its own Enter or Escape caused. */
let refocus: string | undefined;

/**
 * A search box.
 *
 * @example
 * root.append(searchBox({ id: 'ov-q', label: 'Search the section', placeholder: 'Words', value: q, search: (q) => ctx.navigate({ q: q || undefined }) }));
 */
export function searchBox(o: SearchBoxOptions): HTMLFormElement {
  const input = h('input', {
    attrs: {
      id: o.id,
      type: 'search',
      name: 'q',
      value: o.value,
      placeholder: o.placeholder,
      spellcheck: 'false',
      autocomplete: 'off',
      enterkeyhint: 'search',
    },
  });
  const run = (q: string) => {
    refocus = o.id;
    o.search(q.trim());
  };
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    // Chromium clears a search field on Escape by itself; this also takes `q` out of the URL.
    e.preventDefault();
    input.value = '';
    if (o.value !== '') run('');
  });
  const form = h(
    'form',
    {
      class: 'search-box',
      attrs: { role: 'search' },
      on: {
        submit: (e) => {
          e.preventDefault();
          run(input.value);
        },
      },
    },
    h('label', { attrs: { for: o.id } }, o.label),
    h('span', { class: 'search-row' }, input, h('button', { attrs: { type: 'submit' } }, 'Search')),
  );
  return form;
}

/**
 * After the view is drawn: give the focus back to the box whose Enter or Escape caused the redraw.
 *
 * @example
 * root.append(box); restoreSearchFocus(root);
 */
export function restoreSearchFocus(root: HTMLElement): void {
  if (refocus === undefined) return;
  const input = root.querySelector<HTMLInputElement>(`#${CSS.escape(refocus)}`);
  refocus = undefined;
  if (!input) return;
  input.focus();
  input.setSelectionRange(input.value.length, input.value.length);
}
