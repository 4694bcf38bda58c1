/**
 * `docdb` as Node resolves it (the `node` condition of "." in package.json `exports`): everything the
 * platform-neutral entry point exports, and one Node default — a RemoteApiRefStore built without
 * `archive` reads whole sections from GitHub's archive of the commit (`nodeArchiveReader()`: a
 * 10,000-document section in 5 requests instead of ~100 GraphQL batches). `archive: false` turns it off
 * for one store. Browsers and bundlers without the `node` condition get src/index.ts, which has no
 * default reader.
 *
 * @example
 * import { RemoteApiRefStore, fetchTransport } from 'docdb'; // in Node: bulk reads through the archive
 * const store = new RemoteApiRefStore({ transport: fetchTransport(), owner: 'o', repo: 'r' });
 */
import { setPlatformArchiveReader } from './stores/remote-api/archive-default.js';
import { nodeArchiveReader } from './stores/remote-api/node-archive.js';

export * from './index.js';

setPlatformArchiveReader(nodeArchiveReader());
