/** Which view draws which `view=` (src/viewer/state.ts). */
import type { View } from '../context.js';
import type { ViewName } from '../state.js';
import { chartView } from './chart.js';
import { documentView } from './document.js';
import { fileView } from './file.js';
import { overviewView } from './overview.js';
import { sectionDiffView } from './section-diff.js';
import { tableView } from './table.js';

export const VIEW_OF: Record<ViewName, View> = {
  overview: overviewView,
  table: tableView,
  document: documentView,
  diff: sectionDiffView,
  chart: chartView,
  file: fileView,
};
