/** RemoteApiRefStore's operations on other refs, one lazy chunk (remote-api-features.ts): replaceHistory, deleteRefs, listRefs. */
export * as deleteRefs from '../../stores/remote-api/delete-refs.js';
export * as listRefs from '../../stores/remote-api/matching-refs.js';
export * as replace from '../../stores/remote-api/update-refs.js';
