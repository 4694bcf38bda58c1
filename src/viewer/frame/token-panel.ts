/**
 * The token panel (issue 29 item 8): a password field, "keep for this tab" (sessionStorage only when
 * ticked), "Use" and "Forget". The field has no `name` and the form never submits: a token typed here
 * cannot reach the URL; it lives in token.ts's memory (and sessionStorage when asked), nowhere else.
 */
import { h } from '../dom.js';
import { currentToken, setToken } from '../token.js';

export interface TokenPanel {
  readonly element: HTMLElement;
  /** Open the panel and put the focus in the field (the budget warning's "Add a token"). */
  open(): void;
}

/**
 * The panel; `changed` runs after a token is used or forgotten (the frame re-renders).
 *
 * @example
 * const panel = tokenPanel(() => void render());
 * header.append(panel.element);
 */
export function tokenPanel(changed: () => void): TokenPanel {
  const input = h('input', {
    attrs: {
      id: 'token-input',
      type: 'password',
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-describedby': 'token-help',
    },
  });
  const keep = h('input', { attrs: { id: 'token-keep', type: 'checkbox' } });
  const summary = h('summary', null);
  const state = h('p', { class: 'token-state', attrs: { role: 'status' } });
  const show = () => {
    const has = currentToken() !== null;
    summary.textContent = has ? 'Token: in use' : 'Token: none';
    state.textContent = has
      ? 'A token is in use for this page.'
      : 'No token: public repositories only, 60 requests an hour.';
  };
  const use = (event: Event) => {
    event.preventDefault();
    const value = input.value.trim();
    input.value = '';
    if (value === '') return;
    setToken(value, { keepForTab: keep.checked });
    show();
    // Done with the panel: close it (it covered the page at 375 px) and give the focus back to its summary,
    // which now says "Token: in use", so a keyboard user is where they opened it.
    details.open = false;
    summary.focus();
    changed();
  };
  const forget = () => {
    input.value = '';
    keep.checked = false;
    setToken(null);
    show();
    changed();
  };
  const form = h(
    'form',
    { class: 'token-form', attrs: { autocomplete: 'off' }, on: { submit: use } },
    h('label', { attrs: { for: 'token-input' } }, 'GitHub token'),
    input,
    h(
      'p',
      { attrs: { id: 'token-help' }, class: 'help' },
      'Kept in this page’s memory only — never in the URL, localStorage or IndexedDB. A fine-grained token with read access to the repository’s contents is enough.',
    ),
    h('label', { class: 'check' }, keep, ' Keep for this tab (sessionStorage, gone when the tab closes)'),
    h(
      'div',
      { class: 'buttons' },
      h('button', { attrs: { type: 'submit' } }, 'Use token'),
      h('button', { attrs: { type: 'button' }, on: { click: forget } }, 'Forget token'),
    ),
    state,
  );
  const details = h('details', { class: 'token-panel' }, summary, form);
  show();
  return {
    element: details,
    open() {
      details.open = true;
      input.focus();
    },
  };
}
