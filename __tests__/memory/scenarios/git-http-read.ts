/**
 * Scenario for peak-rss.ts: a GitHttpRefStore on `remote` (argv[2]) lists its section through the real
 * read path (ls-refs, fetch, pack reader); prints the measurement and how it ended. Extra options as
 * JSON in argv[3] (e.g. `{"maxFetchBytes": 1073741824}`); `cacheMaxBytes` there sizes the memory cache
 * (the default 64 MiB evicts the commit of a bigger section before the read gets to it).
 *
 *   node --expose-gc --import tsx __tests__/memory/scenarios/git-http-read.ts http://127.0.0.1:PORT/o/r.git
 */
import { MemoryCacheBackend } from '../../../src/cache/backend.js';
import { GitHttpRefStore } from '../../../src/stores/git-http/index.js';
import { measure } from '../measure.js';

const [remote, extra] = process.argv.slice(2);
if (!remote) throw new Error('usage: git-http-read.ts <remote> [options-json]');
const { cacheMaxBytes, ...options } = extra ? JSON.parse(extra) : {};
const cache = cacheMaxBytes ? { cache: new MemoryCacheBackend({ maxBytes: cacheMaxBytes }) } : {};
const store = new GitHttpRefStore({ remote, ...options, ...cache });
await measure(async () => (await store.list()).entries.length);
