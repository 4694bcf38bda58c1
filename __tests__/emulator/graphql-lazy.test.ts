/**
 * The GraphQL schema (~5 MB) is loaded on the first `POST /graphql`, never for REST: an emulator embedded in
 * a web page that only serves the Git Database API must not pay for it. (Own test file: vitest runs each file
 * in a fresh process, so no earlier GraphQL request has loaded it.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { githubSchemaRequested } from '../../src/emulator/graphql/schema.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
});
afterAll(async () => {
  await em?.stop();
});

it('REST requests leave the schema unloaded; the first /graphql request loads it', async () => {
  const rest = await fetch(`${em.url}/repos/octo-org/widgets/git/ref/heads/main`);
  expect(rest.status).toBe(200);
  const anonymous = await fetch(`${em.url}/graphql`, { method: 'POST', body: '{"query":"{ rateLimit { cost } }"}' });
  expect(anonymous.status).toBe(401); // rejected before the executor is imported
  expect(githubSchemaRequested()).toBe(false);
  const res = await fetch(`${em.url}/graphql`, {
    method: 'POST',
    headers: { authorization: 'bearer ghp_demo_write' },
    body: JSON.stringify({ query: '{ rateLimit { cost } }' }),
  });
  expect(await res.json()).toEqual({ data: { rateLimit: { cost: 1 } } });
  expect(githubSchemaRequested()).toBe(true);
});
