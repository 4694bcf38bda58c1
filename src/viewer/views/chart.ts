/** Placeholder until the chart is built (issue 29). */
import type { View } from '../context.js';
import { h } from '../dom.js';

export const chartView: View = (root) => {
  root.append(h('p', { class: 'placeholder', text: 'This view is being built (issue 29).' }));
};
