/**
 * The archive download for platforms whose fetch can stop at a redirect (Node, Deno, Bun): `docdb/node`
 * exports it as `nodeArchiveReader()`, for `RemoteApiRefStore({ archive })`. Pages cannot use it: codeload
 * sends no CORS header to other origins.
 *
 * The redirect is followed by hand, never by fetch: the API's 302 goes to codeload.github.com, another origin,
 * whose URL carries its own short-lived credential — the API token must not go there (Node's fetch would drop
 * `Authorization` on a cross-origin redirect, other fetches and Octokit may not; the security rule does not
 * rest on that). Exactly one redirect is followed, to https (or to http when the API itself is http, as the
 * emulator on loopback). The gzip'd tar is read as a stream, inflated only as far as it is read (gunzip-pull.ts), by
 * the bounded tar reader (tar-stream.ts), within size caps and a time limit; each entry is judged by
 * archive-reads.ts as it arrives. An error answer's body is read only up to a few KB.
 */
import { concatBytes } from '../../core/bytes.js';
import { InvalidResponse, TransportError } from '../../core/errors.js';
import { readCapped } from '../../transport/limits.js';
import { lowercaseHeaders } from '../../transport/types.js';
import {
  type ArchiveDownload,
  type ArchiveEntry,
  type ArchiveLimits,
  type ArchiveReader,
  ERROR_BODY_BYTES,
} from './archive-reads.js';
import { GunzipError, gunzipPull } from './gunzip-pull.js';
import { isArchiveOverLimit, readTar } from './tar-stream.js';

export interface NodeArchiveReaderOptions {
  /** The fetch to use (default: the global one). Tests inject a metering fetch here. */
  fetch?: typeof globalThis.fetch;
}

/**
 * An archive reader over the platform's fetch.
 *
 * @example
 * import { nodeArchiveReader } from 'docdb/node';
 * const store = new RemoteApiRefStore({ transport: fetchTransport(), owner, repo, token, archive: nodeArchiveReader() });
 */
export function nodeArchiveReader(options: NodeArchiveReaderOptions = {}): ArchiveReader {
  return async ({ url, headers, limits, onEntry }) => {
    const fetchFn = options.fetch ?? globalThis.fetch;
    const signal = AbortSignal.timeout(limits.timeoutMs);
    try {
      const first = await fetchFn(url, { headers, redirect: 'manual', signal, cache: 'no-store' });
      if (first.status < 300 || first.status >= 400) return await answer(first, 1, limits, onEntry);
      await first.body?.cancel();
      const target = redirectTarget(url, first.headers.get('location'));
      // Only what codeload needs: never the Authorization header (nor anything else of the API request).
      const ua = headerValue(headers, 'user-agent');
      const second = await fetchFn(target, {
        headers: ua ? { 'user-agent': ua } : {},
        redirect: 'manual',
        signal,
        cache: 'no-store',
      });
      if (second.status >= 300 && second.status < 400) {
        await second.body?.cancel();
        throw invalid('the archive download redirected twice; refusing to follow');
      }
      return await answer(second, 2, limits, onEntry);
    } catch (e) {
      if (e instanceof InvalidResponse || e instanceof TransportError) throw e;
      const reason = signal.aborted ? 'timeout' : 'network';
      throw new TransportError(
        `readMany: read archive failed without a complete response (${reason})`,
        {
          reason,
          operation: 'readMany',
          step: 'read archive',
        },
        { cause: e },
      );
    }
  };
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** Where the redirect points, refused unless https (or http when the API is http, e.g. a loopback emulator). */
function redirectTarget(apiUrl: string, location: string | null): URL {
  if (!location) throw invalid('a redirect without a Location');
  let target: URL;
  try {
    target = new URL(location, apiUrl);
  } catch {
    throw invalid('a redirect to an unparsable Location');
  }
  const api = new URL(apiUrl);
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && api.protocol === 'http:')) {
    throw invalid(`a redirect to ${target.protocol} (only https is followed)`);
  }
  if (target.username || target.password) throw invalid('a redirect with credentials in the URL authority');
  return target;
}

async function answer(
  res: Response,
  requests: number,
  limits: ArchiveLimits,
  onEntry: (entry: ArchiveEntry) => void,
): Promise<ArchiveDownload> {
  const headers = lowercaseHeaders(res.headers as unknown as Iterable<[string, string]>);
  if (res.status !== 200 || !res.body) {
    // Only the head of an error answer (the transports' one capped reader): its status decides, and a huge or
    // endless body must not. A 2xx other than 200 with more than that is refused as too large.
    const req = { method: 'GET', url: res.url };
    const head = await readCapped(res.body, res.status, null, req, ERROR_BODY_BYTES, ERROR_BODY_BYTES);
    return { requests, status: res.status, headers, body: concatBytes(head) };
  }
  try {
    await readTarGz(res.body, limits, onEntry);
  } catch (e) {
    if (!isArchiveOverLimit(e)) throw e;
    return { requests, status: 200, headers, body: new Uint8Array(0), overLimit: e };
  }
  return { requests, status: 200, headers, body: new Uint8Array(0) };
}

/**
 * The gzip'd tar streamed through the bounded tar reader. Bytes that arrived and are wrong (not gzip, a
 * truncated gzip, a corrupt tar) are `InvalidResponse`, never retried; only a body that failed to arrive
 * (the connection lost, the timeout) stays a transport failure.
 */
async function readTarGz(
  body: ReadableStream<Uint8Array>,
  limits: ArchiveLimits,
  onEntry: (entry: ArchiveEntry) => void,
): Promise<void> {
  const gz = gunzipPull(body);
  const next = async () => {
    try {
      return await gz.next();
    } catch (e) {
      if (e instanceof GunzipError) throw invalid(`the body is not a complete gzip stream (${e.message})`);
      throw e;
    }
  };
  try {
    await readTar(next, limits, onEntry);
  } finally {
    // Stop the download where the read stopped (the end-of-archive blocks, a refusal): nothing more is read.
    await gz.cancel();
  }
}

function invalid(what: string): InvalidResponse {
  return new InvalidResponse(`readMany: read archive returned an unexpected answer: ${what}`, {
    operation: 'readMany',
    step: 'read archive',
  });
}
