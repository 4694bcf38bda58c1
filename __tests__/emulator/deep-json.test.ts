/** A request body nested deeper than GitHub's parser allows is a 400 "Problems parsing JSON", not a 500 (issue 18 §8). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_NESTING } from '../../src/emulator/dispatch.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken('ghp_deep', { login: 'o', repos: '*' });
  em.state.createRepo('o/r');
});
afterAll(() => em?.stop());

const post = (path: string, body: string) =>
  fetch(`${em.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer ghp_deep' }, body });

describe('deeply nested request bodies', () => {
  it.each(['/repos/o/r/git/trees', '/repos/o/r/git/blobs', '/repos/o/r/git/commits', '/graphql'])(
    '100,000 levels to %s: 400 Problems parsing JSON',
    async (path) => {
      const res = await post(path, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe('Problems parsing JSON');
    },
  );
  it('the limit is exact: one level more than allowed is refused, the limit itself is parsed', async () => {
    const nested = (n: number) => `{"tree":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
    expect((await post('/repos/o/r/git/trees', nested(MAX_BODY_NESTING + 1))).status).toBe(400);
    const atLimit = await post('/repos/o/r/git/trees', nested(MAX_BODY_NESTING));
    expect(atLimit.status).toBe(422); // parsed; the tree entries are then invalid
  });
});
