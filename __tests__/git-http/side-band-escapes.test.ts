/**
 * The git-http store keeps a server's words inert (issue 27 §7): a pre-receive hook's side-band output
 * and git's refusal reach `Forbidden`'s message and `data.remoteMessages` with every control character
 * shown as `\uXXXX`, so a library user who prints the error prints no terminal control sequence.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Forbidden } from '../../src/core/errors.js';
import { HOSTILE, RAW_CONTROL } from '../core/hostile-text.js';
import { type GitHttpFixture, gitHttpFixture } from './helpers.js';

let fx: GitHttpFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

describe('GitHttpRefStore and a hostile pre-receive hook', () => {
  it('Forbidden carries the hook’s words with control sequences escaped', async () => {
    fx = await gitHttpFixture();
    writeFileSync(join(fx.repoDir, 'hooks/message'), `${Object.values(HOSTILE).join('\n')}\n`);
    writeFileSync(join(fx.repoDir, 'hooks/pre-receive'), '#!/bin/sh\ncat "$(dirname "$0")/message" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const e = await fx
      .store()
      .put('a.json', '"a"')
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Forbidden);
    const { message, data } = e as Forbidden;
    const said = data.remoteMessages as string[];
    expect(said).toContain('\\u001B]0;pwned\\u0007');
    expect(said).toContain('\\u001B]52;c;Y3VybCBldmlsLnNofHNo\\u0007');
    expect(said).toContain('abc\\u202Efdp.exe');
    for (const text of [message, ...said, String(data.reason)]) expect(text).not.toMatch(RAW_CONTROL);
  });
});
