/**
 * The emulator app served over a data directory: each request is answered only once what it wrote is on
 * disk, a request whose journaling failed answers GitHub's 500 (`{ message, documentation_url, status }`),
 * and once the journal has stopped (./journal-file.ts) every write is answered 503 while reads are served.
 */
import type { EmulatorApp } from '../app.js';
import { ApiError, baseHeaders, JSON_TYPE } from '../http.js';
import type { RequestEnv } from '../incoming.js';
import { isGraphqlMutation } from '../rations.js';
import type { DataDir } from './data-dir.js';

/**
 * `app`, durable through `data`.
 *
 * @example
 * const { server } = await listen(durable(app, openDataDir(app.state, dir, key)), host, port);
 */
export function durable(app: Pick<EmulatorApp, 'fetch'>, data: DataDir): Pick<EmulatorApp, 'fetch'> {
  return {
    fetch: async (request: Request, env?: RequestEnv) => {
      if (data.stopped !== undefined && (await writes(request))) {
        return errorResponse(new ApiError(503, `Service Unavailable: ${data.stopped}`));
      }
      const response = await app.fetch(request, env);
      try {
        data.flush();
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        return errorResponse(e); // not acknowledged: the response computed is not sent
      }
      return response;
    },
  };
}

/** A write as GitHub's secondary limits count them: any REST method but GET/HEAD/OPTIONS, a GraphQL mutation. */
async function writes(request: Request): Promise<boolean> {
  const path = new URL(request.url).pathname;
  if (path === '/graphql') {
    return request.method === 'POST' && isGraphqlMutation(new Uint8Array(await request.clone().arrayBuffer()));
  }
  return !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
}

function errorResponse(err: ApiError): Response {
  return new Response(JSON.stringify(err.toBody()), {
    status: err.status,
    headers: { ...baseHeaders(), 'Content-Type': JSON_TYPE },
  });
}
