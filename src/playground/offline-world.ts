/**
 * The playground's offline mode: the emulator's web-standard core running inside the page, with a
 * small demo world built through its state API (no seed parser, no Node, no network). Loaded lazily,
 * only when the page is switched to offline.
 */
import { createEmulatorApp, type EmulatorApp } from '../emulator/app.js';

/** Base URL the in-page emulator answers on (never leaves the page). */
export const OFFLINE_API_URL = 'https://api.github.invalid';

/** An in-page emulator with `octo-org/widgets`, `octo-org/gadgets` and `octocat/hello-world`. */
export function createOfflineWorld(): EmulatorApp {
  const app = createEmulatorApp();
  const { state } = app;
  state.account('octo-org', 'Organization').name = 'Octo Org';
  state.createRepo('octo-org/widgets', { description: 'Widgets for every occasion', topics: ['widgets', 'demo'] });
  state.commitFiles('octo-org/widgets', {
    files: { 'src/widget.ts': 'export const widget = 1;\n', 'package.json': '{ "name": "widgets" }\n' },
    message: 'Add project files',
  });
  state.addBranch('octo-org/widgets', 'develop');
  state.commitFiles('octo-org/widgets', { branch: 'develop', files: { 'src/next.ts': 'export const next = 2;\n' } });
  state.addBranch('octo-org/widgets', 'feature/login');
  state.commitFiles('octo-org/widgets', {
    branch: 'feature/login',
    files: { 'src/login.ts': 'export const login = () => true;\n' },
  });
  state.createRepo('octo-org/gadgets', { description: 'Gadgets and gizmos', defaultBranch: 'trunk' });
  state.addBranch('octo-org/gadgets', 'release/1.x');
  state.createRepo('octocat/hello-world', {
    description: 'My first repository on the emulated GitHub!',
    defaultBranch: 'master',
  });
  return app;
}
