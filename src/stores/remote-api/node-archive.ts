/**
 * The archive download for platforms whose fetch can stop at a redirect (Node, Deno, Bun): `docdb/node`
 * exports it as `nodeArchiveReader()`, for `RemoteApiRefStore({ archive })`. Pages cannot use it: codeload
 * sends no CORS header to other origins.
 *
 * The redirect is followed by hand, never by fetch: the API's 302 goes to codeload.github.com, another origin,
 * whose URL carries its own short-lived credential — the API token must not go there (Node's fetch would drop
 * `Authorization` on a cross-origin redirect, other fetches and Octokit may not; the security rule does not
 * rest on that). Exactly one redirect is followed, to https (or to http when the API itself is http, as the
 * emulator on loopback). The gzip'd tar is read as a stream with the platform's `DecompressionStream` and
 * modern-tar, within size caps and a time limit; what it holds is judged by archive-reads.ts.
 */
import { createTarDecoder } from 'modern-tar';
import { InvalidResponse, TransportError } from '../../core/errors.js';
import { lowercaseHeaders } from '../../transport/types.js';
import type { ArchiveDownload, ArchiveEntry, ArchiveLimits, ArchiveReader } from './archive-reads.js';

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
  return async ({ url, headers, limits }) => {
    const fetchFn = options.fetch ?? globalThis.fetch;
    const signal = AbortSignal.timeout(limits.timeoutMs);
    try {
      const first = await fetchFn(url, { headers, redirect: 'manual', signal, cache: 'no-store' });
      if (first.status < 300 || first.status >= 400) return await answer(first, 1, limits);
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
      return await answer(second, 2, limits);
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

async function answer(res: Response, requests: number, limits: ArchiveLimits): Promise<ArchiveDownload> {
  const headers = lowercaseHeaders(res.headers as unknown as Iterable<[string, string]>);
  if (res.status !== 200 || !res.body) {
    return { requests, status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
  }
  const entries = await readTarGz(res.body, limits);
  return { requests, status: 200, headers, body: new Uint8Array(0), entries };
}

/** Every entry of a gzip'd tar stream, within the caps (untrusted input). */
async function readTarGz(body: ReadableStream<Uint8Array>, limits: ArchiveLimits): Promise<ArchiveEntry[]> {
  const gunzip = new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
  const reader = body
    .pipeThrough(gunzip)
    .pipeThrough(createTarDecoder({ strict: true }))
    .getReader();
  const out: ArchiveEntry[] = [];
  let total = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const { header, body: entryBody } = r.value;
    const type = header.type ?? 'file';
    if (type === 'pax-global-header' || type === 'pax-header') {
      await entryBody.cancel();
      continue;
    }
    if (type !== 'file' && type !== 'directory' && type !== 'symlink') {
      await entryBody.cancel();
      throw invalid(`entry ${JSON.stringify(header.name)} is a ${type}; only files, directories and symlinks are read`);
    }
    if (header.size > limits.maxEntryBytes)
      throw invalid(`entry ${JSON.stringify(header.name)} is larger than ${limits.maxEntryBytes} bytes`);
    total += header.size;
    if (total > limits.maxBytes) throw invalid(`the archive holds more than ${limits.maxBytes} bytes`);
    const bytes = new Uint8Array(await new Response(entryBody).arrayBuffer());
    if (bytes.length !== header.size && type === 'file')
      throw invalid(`entry ${JSON.stringify(header.name)} is truncated`);
    out.push({
      path: header.name,
      type,
      mode: header.mode ?? 0o644,
      bytes,
      ...(header.linkname ? { linkname: header.linkname } : {}),
    });
  }
  return out;
}

function invalid(what: string): InvalidResponse {
  return new InvalidResponse(`readMany: read archive returned an unexpected answer: ${what}`, {
    operation: 'readMany',
    step: 'read archive',
  });
}
