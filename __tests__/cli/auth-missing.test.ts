/**
 * The CLI words `AuthMissing` in its own terms on the error's first line (issue 22): whichever store
 * raised it, the line names GITHUB_TOKEN / GH_TOKEN, --token-env and `gh auth login`, and drops the
 * library's advice about its `token`/`credentials` options, which a CLI user cannot set.
 */
import { describe, expect, it } from 'vitest';
import { type CliIo, EXIT, reportError } from '../../src/cli/io.js';
import { AuthMissing } from '../../src/core/errors.js';

const WAY_OUT =
  'No token was found. Set GITHUB_TOKEN (or GH_TOKEN), name another variable with --token-env NAME, or log in with `gh auth login`. A git remote that is not on GitHub takes its token only from --token-env NAME or DOCDB_GIT_TOKEN.';

function report(e: unknown, json = false): { code: number; stderr: string; stdout: string } {
  let stderr = '';
  let stdout = '';
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: {},
    cwd: '/',
    readStdin: async () => undefined,
  };
  const code = reportError(io, 'doc put', e, { json });
  return { code, stderr, stdout };
}

describe('AuthMissing in the CLI', () => {
  it.each([
    // remote-api: a write without a token (write-host.ts)
    [
      'doc put: writing to o/r needs a token with contents: write; configure token or credentials',
      'doc put: writing to o/r needs a token with contents: write',
    ],
    // remote-api: a 401 to an anonymous request (status.ts)
    [
      'GET /repos/o/r/git/ref/docdb/documents needs a token: GitHub said "Requires authentication". Pass a token (the store\'s `token` or `credentials` option).',
      'GET /repos/o/r/git/ref/docdb/documents needs a token: GitHub said "Requires authentication"',
    ],
    // git-http: its own wording has no library option in it, and is kept
    [
      'https://git.example/o/r.git needs credentials: give a token',
      'https://git.example/o/r.git needs credentials: give a token',
    ],
  ])('%s', (message, what) => {
    const r = report(new AuthMissing(message, {}));
    expect(r.code).toBe(EXIT.error);
    const [first, ...rest] = r.stderr.split('\n');
    expect(first).toBe(`docdb doc put: AuthMissing: ${what}. ${WAY_OUT}`);
    expect(rest.join('')).toBe('');
  });

  it('--json carries the same message', () => {
    const r = report(
      new AuthMissing('doc put: writing to o/r needs a token with contents: write; configure token or credentials', {}),
      true,
    );
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('AuthMissing');
    expect(error.message).toBe(`doc put: writing to o/r needs a token with contents: write. ${WAY_OUT}`);
  });

  it('other errors keep their message as it is', () => {
    const r = report(new Error('boom; configure token or credentials'));
    expect(r.stderr).toBe('docdb doc put: Error: boom; configure token or credentials\n');
  });
});
