/**
 * Scenario for peak-rss.ts: a GitHttpRefStore on `remote` (argv[2]) lists its section through the real
 * read path (ls-refs, fetch, pack reader); prints the measurement and how it ended. Extra options as
 * JSON in argv[3] (e.g. `{"maxFetchBytes": 1073741824}`).
 *
 *   node --expose-gc --import tsx __tests__/memory/scenarios/git-http-read.ts http://127.0.0.1:PORT/o/r.git
 */
import { GitHttpRefStore } from '../../../src/stores/git-http/index.js';
import { measure } from '../measure.js';

const [remote, extra] = process.argv.slice(2);
if (!remote) throw new Error('usage: git-http-read.ts <remote> [options-json]');
const store = new GitHttpRefStore({ remote, ...(extra ? JSON.parse(extra) : {}) });
await measure(async () => (await store.list()).entries.length);
