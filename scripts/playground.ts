/**
 * `npm run playground`: build the playground page, start the emulator (demo world) on loopback and
 * serve the page on another loopback port, pointed at the emulator. Ctrl-C stops both.
 *
 *   npm run playground                 # page on a free port, emulator on a free port
 *   npm run playground -- --port 8080  # page on 8080
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_SEED, startEmulator } from '../src/emulator/index.js';
import { buildPlayground } from './build-browser.mjs';
import { startStaticServer } from './static-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--port');
const port = i > 0 ? Number(process.argv[i + 1]) : 0;
const built = await buildPlayground(join(root, 'lib'));
const em = await startEmulator({ seed: DEMO_SEED });
const site = await startStaticServer({ root: built.dir, port });
const page = `${site.url}/index.html?api=${encodeURIComponent(em.url)}&repo=octo-org/widgets`;
console.log(`emulator:   ${em.url} (demo world: octo-org/widgets, octo-org/gadgets, octocat/hello-world)`);
console.log(`playground: ${page}`);
console.log('Ctrl-C to stop.');
const stop = async () => {
  await site.close();
  await em.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
