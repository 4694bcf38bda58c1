/**
 * For tests whose emulator serves GraphQL to a client with a request timer (the Action, the CLI: 30 s):
 * build the emulator's GraphQL schema in `beforeAll`, before any request is timed or counted.
 */
import { githubSchema } from '../../src/emulator/graphql/schema.js';

/**
 * Builds GitHub's GraphQL schema for the emulators of this process now. The emulator answers from the
 * test's own process, and its first GraphQL answer builds the whole schema (~5 MB of introspection):
 * 12 s measured on the 2-core CI machine beside four busy loops (issue 37 item 18). A client's request
 * timer can fire meanwhile and the client retries: one request more than the test counts, or a test
 * timeout. The schema is built once per process, so later answers cost only their own work.
 *
 * @example
 * beforeAll(async () => {
 *   await warmGraphql();
 *   em = await startEmulator();
 * });
 */
export async function warmGraphql(): Promise<void> {
  await githubSchema();
}
