/**
 * Interop both ways with plain git over the same smart-HTTP server: what GitHttpRefStore writes,
 * `git fetch` of the section ref reads byte for byte; what plain `git commit` + `git push` put on the
 * section ref, the store reads (value, history) and writes on top of.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsckStrict, GIT_TEST_ENV, git } from '../git/helpers.js';
import { type GitHttpFixture, gitHttpFixture, TOKEN } from './helpers.js';

let fx: GitHttpFixture;
beforeEach(async () => {
  fx = await gitHttpFixture();
});
afterEach(() => fx.cleanup());

const REF = 'refs/docdb/documents';

/** git talking to the in-process server: asynchronous, or the server could never answer it. */
async function remoteGit(args: string[]): Promise<void> {
  await promisify(execFile)('git', args, { env: { ...GIT_TEST_ENV, GIT_TERMINAL_PROMPT: '0' } });
}
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

describe('GitHttpRefStore and plain git on one server', () => {
  it('git fetches what the store wrote; the store reads and extends what git pushed', async () => {
    const store = fx.store();
    const w1 = await store.commit(
      [
        { op: 'put', key: 'notes/a.json', value: '{"a":1}\n' },
        { op: 'put', key: 'bin/x', value: new Uint8Array([0, 255, 10, 13]) },
      ],
      { message: 'from docdb' },
    );
    // Plain git, credentials in an extra header (never in the URL), exact ref names.
    const auth = ['-c', `http.extraHeader=Authorization: Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`];
    const work = join(fx.dir, 'work');
    git(['init', '-q', work]);
    await remoteGit(['-C', work, ...auth, 'fetch', '-q', fx.remote, `${REF}:${REF}`]);
    expect(git(['-C', work, 'rev-parse', REF]).trim()).toBe(w1.version);
    expect(git(['-C', work, 'show', `${REF}:notes/a.json`])).toBe('{"a":1}\n');
    const binary = execFileSync('git', ['-C', work, 'cat-file', 'blob', `${REF}:bin/x`], { env: GIT_TEST_ENV });
    expect([...binary]).toEqual([0, 255, 10, 13]);
    expect(git(['-C', work, 'log', '-1', '--format=%s', REF]).trim()).toBe('from docdb');

    git(['-C', work, 'checkout', '-q', REF]);
    writeFileSync(join(work, 'notes', 'a.json'), '{"a":2}\n');
    writeFileSync(join(work, 'notes', 'b.json'), '{"b":1}\n');
    git(['-C', work, 'add', '-A']);
    git(['-C', work, 'commit', '-q', '-m', 'from plain git']);
    const pushed = git(['-C', work, 'rev-parse', 'HEAD']).trim();
    await remoteGit(['-C', work, ...auth, 'push', '-q', fx.remote, `HEAD:${REF}`]);

    const got = await store.get('notes/a.json');
    expect(got?.version).toBe(pushed);
    expect(text(got?.value)).toBe('{"a":2}\n');
    const history = await store.history('notes/a.json');
    expect(history.entries.map((e) => [e.version, e.message.trim()])).toEqual([
      [pushed, 'from plain git'],
      [w1.version, 'from docdb'],
    ]);
    const w2 = await store.put('notes/b.json', '{"b":2}\n');
    expect(w2.previousVersion).toBe(pushed);

    await remoteGit(['-C', work, ...auth, 'fetch', '-q', fx.remote, `+${REF}:${REF}`]);
    expect(git(['-C', work, 'rev-list', '--first-parent', REF]).trim().split('\n')).toEqual([
      w2.version,
      pushed,
      w1.version,
    ]);
    expect(git(['-C', work, 'show', `${REF}:notes/b.json`])).toBe('{"b":2}\n');
    expect(readFileSync(join(work, 'notes', 'b.json'), 'utf8')).toBe('{"b":1}\n'); // the checkout is git's own
    fsckStrict(join(work, '.git'));
    fsckStrict(fx.repoDir);
  });
});
