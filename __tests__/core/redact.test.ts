/**
 * No token in any error (issue 18 §4): an upstream that echoes the token it was sent, at every status, and
 * errors that carry it in their message, data, causes and attached HTTP responses.
 */
import { describe, expect, it } from 'vitest';
import { DocDbError, TransportError } from '../../src/core/errors.js';
import { REDACTED, redactError, redactText } from '../../src/core/redact.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { recordingTransport } from '../../src/transport/recording.js';

const TOKEN = 'ghp_EchoedTokenEchoedToken0123456789ab';
/** A token that does not look like GitHub's: only the configured secret list can find it. */
const PLAIN = 'plain-secret-0123456789';

describe('redactText and redactError', () => {
  it('replace the secrets and any GitHub-token-shaped string', () => {
    expect(redactText(`a ${PLAIN} b ${TOKEN} c github_pat_11AAAAAAA0abcdefghijklmnopqrstuv`, [PLAIN])).toBe(
      `a ${REDACTED} b ${REDACTED} c ${REDACTED}`,
    );
    expect(redactText('ghp_short stays', [])).toBe('ghp_short stays');
  });

  it('reach message, stack, data (deeply), the cause chain and attached responses', () => {
    const octokitLike = Object.assign(new Error(`HttpError: ${PLAIN}`), {
      status: 500,
      request: { headers: { authorization: `token ${PLAIN}` } },
      response: { data: { message: `echo ${PLAIN}` }, headers: { 'x-echo': PLAIN } },
    });
    const e = new TransportError(
      `failed: ${PLAIN}`,
      { upstreamMessage: `said ${PLAIN}`, nested: { list: [PLAIN, { deep: PLAIN }] } },
      { cause: new Error(`inner ${PLAIN}`, { cause: octokitLike }) },
    );
    redactError(e, [PLAIN]);
    const everything = JSON.stringify({
      message: e.message,
      stack: e.stack,
      data: e.data,
      json: e.toJSON(),
      cause: (e.cause as Error).message,
      causeOfCause: [octokitLike.message, octokitLike.stack, octokitLike.request, octokitLike.response],
    });
    expect(everything).not.toContain(PLAIN);
    expect(everything).toContain(REDACTED);
  });

  it('survive cycles and frozen objects', () => {
    const data: Record<string, unknown> = { s: PLAIN };
    data.self = data;
    const e = new DocDbError(PLAIN, data, { cause: Object.freeze({ s: PLAIN }) });
    expect(() => redactError(e, [PLAIN])).not.toThrow();
    expect(e.message).toBe(REDACTED);
    expect(data.s).toBe(REDACTED);
  });
});

describe('the GitHub API store, when the upstream echoes the token', () => {
  it.each([401, 403, 404, 409, 422, 500])('HTTP %i: no token in the message, data, cause or toJSON', async (status) => {
    const body = { message: `bad credentials for ${PLAIN} and ${TOKEN}`, token: PLAIN };
    // 5xx answers are retried: answer every request the same way.
    const t = recordingTransport().route('GET', /./, { status, body, headers: { 'x-echo': PLAIN } });
    const store = new RemoteApiRefStore({ transport: t, owner: 'o', repo: 'r', token: PLAIN, sleep: async () => {} });
    const err = await store.get('a.json').catch((e) => e);
    expect(err).toBeInstanceOf(DocDbError);
    let all = JSON.stringify([err.message, err.stack, err.data, err.toJSON()]);
    for (let c = err.cause; c; c = (c as Error).cause) all += JSON.stringify([String((c as Error).message), c]);
    expect(all).not.toContain(PLAIN);
    expect(all).not.toContain(TOKEN);
  });
});
