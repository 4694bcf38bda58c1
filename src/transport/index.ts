/** HTTP transports: one `request()` seam; none interprets status codes. See docs/transports.md. */

export { cappedFetch } from './capped-fetch.js';
export { DEFAULT_TIMEOUT_MS, type FetchTransportOptions, fetchTransport } from './fetch.js';
export { type HostHttpFunction, type HostHttpResponse, hostTransport } from './host.js';
export { DEFAULT_MAX_ERROR_BODY_BYTES, DEFAULT_MAX_RESPONSE_BYTES, type ResponseCaps } from './limits.js';
export { type OctokitLike, octokitTransport } from './octokit.js';
export {
  type RecordedRequest,
  type RecordingTransport,
  recordingTransport,
  type ScriptedResponse,
  type ScriptStep,
} from './recording.js';
export type { HttpRequest, HttpResponse, HttpTransport, TransportFailure } from './types.js';
export { isSafeMethod } from './types.js';
