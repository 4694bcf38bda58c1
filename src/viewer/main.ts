/** The viewer page's entry point (lib/viewer/viewer.js): a static page anyone can host (docs/viewer.md). */
import { startViewer } from './app.js';

void startViewer(document, window);
