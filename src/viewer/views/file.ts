/** Placeholder until the file view is built (issue 29). */
import type { View } from '../context.js';
import { h } from '../dom.js';

export const fileView: View = (root) => {
  root.append(h('p', { class: 'placeholder', text: 'This view is being built (issue 29).' }));
};
