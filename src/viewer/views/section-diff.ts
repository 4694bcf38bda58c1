/** Placeholder until the section diff is built (issue 29). */
import type { View } from '../context.js';
import { h } from '../dom.js';

export const sectionDiffView: View = (root) => {
  root.append(h('p', { class: 'placeholder', text: 'This view is being built (issue 29).' }));
};
