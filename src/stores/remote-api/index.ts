/** RemoteApiRefStore over GitHub's Git Database REST API. See docs/remote-api.md. */

export {
  type ArchiveDownload,
  type ArchiveEntry,
  type ArchiveLimits,
  type ArchiveReader,
  DEFAULT_ARCHIVE_LIMITS,
} from './archive-reads.js';
export {
  DEFAULT_API_URL,
  DEFAULT_MAX_INLINE_BYTES,
  DEFAULT_MAX_RETRY_AFTER_SECONDS,
  DEFAULT_READ_RETRIES,
  DEFAULT_REF,
  DEFAULT_RETRY_CONCURRENT_WRITES,
  DEFAULT_USER_AGENT,
  isLoopbackHost,
  type RemoteApiCacheOptions,
  type RemoteApiLogEvent,
  type RemoteApiRefStoreOptions,
} from './config.js';
export type { RefDeletion } from './delete-refs.js';
export { RemoteApiRefStore } from './remote-api-refstore.js';
export { mapStatusError, parseRateLimit, type StatusContext } from './status.js';
