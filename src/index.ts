/**
 * docdb — a versioned document database on one git ref, over GitHub's Git Database REST API.
 * This entry point is platform-neutral (Node 22.12+ and browsers). Node-only pieces live behind
 * subpaths: `docdb/emulator` (the GitHub API emulator) and `docdb/octokit` (createOctokit).
 *
 * @example
 * import { DocumentStore, RemoteApiRefStore, fetchTransport, errors } from 'docdb';
 */
export * from './cache/index.js';
export * from './core/index.js';
export * from './document/index.js';
export * from './retention/index.js';
export * from './stores/memory/index.js';
export * from './stores/remote-api/index.js';
export * from './transport/index.js';
