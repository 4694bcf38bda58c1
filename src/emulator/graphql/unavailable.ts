/**
 * Stand-in for `./execute.ts` in browser builds of the emulator (scripts/build-browser.mjs swaps it in):
 * executing GraphQL needs GitHub's schema from `@octokit/graphql-schema` (megabytes, read with node:fs),
 * which an emulator inside a web page must not load. The in-page emulator answers `POST /graphql` with
 * this error instead; the Node emulator (`docdb emulator`, `docdb/emulator`) serves GraphQL in full.
 */
import { ApiError } from '../http.js';

/**
 * Same signature as `executeGraphql` in ./execute.ts; always refuses (503).
 *
 * @example
 * await executeGraphql(body, ctx); // rejects with ApiError 503
 */
export async function executeGraphql(..._args: unknown[]): Promise<never> {
  throw new ApiError(
    503,
    'GraphQL is not served by the in-page emulator (it would have to load GitHub’s whole schema); use the Node emulator',
    'https://docs.github.com/graphql',
  );
}
