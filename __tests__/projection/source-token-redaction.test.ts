/**
 * A token never leaves a run inside an error (issue 18): a server that echoes the token it was sent — in
 * its error message and body — makes a source error quote it. runProjections (library use, not only the
 * Action or the CLI, which redact again when printing) must redact the run's own token, whatever its shape:
 * a 40-hex token looks like nothing GitHub-shaped, so only knowing the secret can catch it. The same holds
 * for an `http` source's secret header value.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { DocDbError } from '../../src/core/errors.js';
import { createOctokit } from '../../src/transport/create-octokit.js';
import { closeServers, project, serve } from './loopback.js';

afterEach(closeServers);

const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

/** Every way an error is read: message, data, cause, stack, toJSON, and whatever inspecting it shows. */
function everything(e: unknown): string {
  const err = e as DocDbError;
  return [
    err.message,
    JSON.stringify(err.data),
    String(err.cause),
    err.stack,
    JSON.stringify(err.toJSON()),
    inspect(err, { depth: 20, showHidden: true }),
  ].join('\n');
}

describe('source errors of runProjections hold no token', () => {
  it('a 403 that echoes a non-GitHub-shaped token in its message and body', async () => {
    const api = await serve((req, res) => {
      const sent = String(req.headers.authorization).replace(/^(token|bearer) /i, '');
      res
        .writeHead(403, { 'content-type': 'application/json', 'x-echo': sent })
        .end(JSON.stringify({ message: `token token ${sent} refused`, documentation_url: `https://x.test/${sent}` }));
    });
    const { error } = await project(
      'projections:\n  rel:\n    source: { type: releases, repositories: [o/r] }\n',
      api.url,
      { client: createOctokit({ auth: TOKEN, baseUrl: api.url, writeSpacingMs: 0 }) },
    );
    expect(error).toBeInstanceOf(DocDbError);
    expect((error as Error).message).toContain('token token [REDACTED] refused'); // the echo did reach the error
    expect(everything(error)).not.toContain(TOKEN);
  });

  it('an http source whose fetch failure quotes the secret header it was sending', async () => {
    const secret = 'k3y-0f-th3-d4t4-4p1';
    const { error } = await project(
      'projections:\n  x:\n    source: { type: http, url: "https://data.example/a.json", header: { name: X-Api-Key, env: DATA_KEY } }\n    identity: { id: "{index}" }\n',
      'https://api.example',
      {
        env: { DATA_KEY: secret },
        // A proxy or client library that quotes the request in its failure.
        fetch: async (_url, init) => {
          throw new TypeError(`fetch failed: x-api-key: ${(init!.headers as Record<string, string>)['x-api-key']}`);
        },
      },
    );
    expect(error).toBeInstanceOf(DocDbError);
    expect((error as Error).message).toContain('x-api-key: [REDACTED]');
    expect(everything(error)).not.toContain(secret);
  });
});
