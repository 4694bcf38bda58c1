/**
 * Scenario for transport-caps.test.ts: one document read by a RemoteApiRefStore whose `apiUrl` is a hostile
 * server (the parent runs it) that answers the read with a body that never ends — a 500's, or a 200's. Args: apiUrl, owner, repo, token,
 * transport (`fetch` | `octokit`), timeoutMs of the fetch transport. The store does not retry (readRetries 0),
 * so the measurement is of one such answer.
 */
import { RemoteApiRefStore } from '../../../src/stores/remote-api/index.js';
import { createOctokit } from '../../../src/transport/create-octokit.js';
import { fetchTransport, octokitTransport } from '../../../src/transport/index.js';
import { measure } from '../measure.js';

const [apiUrl = '', owner = '', repo = '', token = '', kind = 'fetch', timeoutMs = '30000'] = process.argv.slice(2);
const transport =
  kind === 'octokit'
    ? octokitTransport(createOctokit({ auth: token, baseUrl: apiUrl, writeSpacingMs: 0, warn: () => {} }))
    : fetchTransport({ timeoutMs: Number(timeoutMs) });
const store = new RemoteApiRefStore({ transport, apiUrl, owner, repo, token, readRetries: 0 });

await measure(async () => store.get('docs/a.json'));
