/** A `fetch` that counts what a benchmark's worker sends and receives (requests, writes, bytes). */

export interface Meter {
  requests: number;
  writes: number;
  sent: number;
  received: number;
}

/**
 * @example
 * const meter = { requests: 0, writes: 0, sent: 0, received: 0 };
 * const store = new RemoteApiRefStore({ transport: fetchTransport({ fetch: meteredFetch(meter) }), … });
 */
export function meteredFetch(meter: Meter): typeof fetch {
  return async (input, init) => {
    meter.requests++;
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') meter.writes++;
    const body = init?.body;
    if (typeof body === 'string') meter.sent += Buffer.byteLength(body);
    else if (body instanceof Uint8Array) meter.sent += body.byteLength;
    const res = await fetch(input, init);
    const buf = new Uint8Array(await res.arrayBuffer());
    meter.received += buf.byteLength;
    const nullBody = res.status === 204 || res.status === 304;
    return new Response(nullBody ? null : buf, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
