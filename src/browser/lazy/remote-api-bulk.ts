/** The bulk readers of RemoteApiRefStore, one lazy chunk (remote-api-features.ts): readMany, archives, readVersions. */

export * as bulk from '../../stores/remote-api/bulk-reads.js';
export * as archives from '../../stores/remote-api/section-archives.js';
export * as versioned from '../../stores/remote-api/versioned-reads.js';
