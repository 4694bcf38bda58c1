/** The history readers of RemoteApiRefStore, one lazy chunk (remote-api-features.ts): history, versions, changes. */
export * as history from '../../stores/remote-api/history.js';
export * as versions from '../../stores/remote-api/versions.js';
