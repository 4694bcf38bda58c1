/**
 * Gunzip pulled by its reader, so a gzip bomb inflates only as far as the reader reads (issue 27).
 * node:zlib stops inflating while its output is unread (its stream's backpressure); the platform's
 * `DecompressionStream` does not in Node 20 (its adapter moves every output chunk into the web stream's
 * queue at once): 1 MB of gzip'd zeros became a gigabyte held in memory before the tar reader saw the
 * first of it. Here at most zlib's buffers (16 KiB in, 16 KiB out, plus one body chunk) wait to be read.
 *
 * Errors say where they came from: the body's own (the connection, the timeout) are rethrown as they are;
 * bytes that arrived but are not a complete gzip stream become {@link GunzipError}.
 */
import { createGunzip } from 'node:zlib';

/** The body arrived but is not (or not a whole) gzip stream. */
export class GunzipError extends Error {
  override readonly name = 'GunzipError';
}

/**
 * A `next()` over the inflated bytes of `body` (undefined at the end) and a `cancel()` that stops the
 * download.
 *
 * @example
 * const g = gunzipPull(res.body);
 * for (let c = await g.next(); c; c = await g.next()) use(c);
 */
export function gunzipPull(body: ReadableStream<Uint8Array>): {
  next: () => Promise<Uint8Array | undefined>;
  cancel: () => Promise<void>;
} {
  const source = body.getReader();
  const gunzip = createGunzip();
  // The output iterator below reports zlib's errors; this listener only keeps one that comes before the
  // iterator's first read (or after the last) from being an uncaught 'error' event.
  gunzip.on('error', () => {});
  let bodyFailure: { error: unknown } | undefined;
  const pump = async () => {
    try {
      for (;;) {
        const r = await source.read();
        if (gunzip.destroyed) return;
        if (r.done) {
          gunzip.end();
          return;
        }
        if (!gunzip.write(r.value)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              gunzip.off('drain', done).off('close', done);
              resolve();
            };
            gunzip.on('drain', done).on('close', done);
          });
        }
      }
    } catch (error) {
      bodyFailure = { error };
      gunzip.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  };
  void pump();
  const output = gunzip[Symbol.asyncIterator]();
  const next = async (): Promise<Uint8Array | undefined> => {
    try {
      const r = await output.next();
      return r.done ? undefined : (r.value as Uint8Array);
    } catch (e) {
      if (bodyFailure) throw bodyFailure.error;
      throw new GunzipError(e instanceof Error ? e.message : String(e));
    }
  };
  const cancel = async () => {
    gunzip.destroy();
    await source.cancel().catch(() => {});
  };
  return { next, cancel };
}
