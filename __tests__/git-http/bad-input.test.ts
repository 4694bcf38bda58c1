/**
 * Bad input to GitHttpRefStore, each a typed error that names the cause: a URL that is not http(s),
 * credentials in the URL, a server that is not a git server (or not protocol v2), an auth failure,
 * a missing repository, and a section ref that another ref shadows for git's name resolution.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthInvalid,
  AuthMissing,
  type DocDbError,
  InvalidConfig,
  InvalidResponse,
  NotFound,
} from '../../src/core/errors.js';
import { GitHttpRefStore } from '../../src/stores/git-http/index.js';
import { git } from '../git/helpers.js';
import { type GitHttpFixture, gitHttpFixture, TOKEN } from './helpers.js';

let fx: GitHttpFixture | undefined;
let plain: Server | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
  await new Promise((r) => (plain ? plain.close(r) : r(undefined)));
  plain = undefined;
});

async function caught(p: Promise<unknown>): Promise<DocDbError> {
  try {
    await p;
  } catch (e) {
    return e as DocDbError;
  }
  throw new Error('expected a rejection');
}

/** A pkt-line (length in hex, counting its 4 bytes). */
const pkt = (text: string) => (text.length + 4).toString(16).padStart(4, '0') + text;

/** A plain HTTP server answering every request with `status`, `type` and `body`. */
async function plainServer(status: number, type: string, body: string): Promise<string> {
  plain = createServer((_req, res) => res.writeHead(status, { 'Content-Type': type }).end(body));
  await new Promise<void>((r) => plain?.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(plain.address() as AddressInfo).port}/owner/repo.git`;
}

describe('GitHttpRefStore refuses bad input with a typed error naming the cause', () => {
  it.each([
    ['ssh://git@example.com/o/r.git', /scheme ssh: is not supported: GitHttpRefStore speaks git's smart HTTP only/],
    ['file:///srv/data.git', /scheme file: is not supported/],
    ['git@example.com:o/r.git', /not a URL|scheme git@example.com: is not supported/],
    ['/srv/data.git', /remote is not a URL/],
    ['https://example.com/o/r.git?x=1', /must not have a query or fragment/],
    ['http://example.com/o/r.git', /uses plain http: the token and data would travel in clear text/],
  ])('remote %s', (remote, message) => {
    const e = (() => {
      try {
        new GitHttpRefStore({ remote });
      } catch (err) {
        return err as DocDbError;
      }
    })();
    expect(e).toBeInstanceOf(InvalidConfig);
    expect(e?.data.field).toBe('remote');
    expect(e?.message).toMatch(message);
  });

  it('credentials in the URL: refused, told to pass the token separately, and never echoed', () => {
    for (const remote of ['https://user:s3cretTok@example.com/o/r.git', 'https://s3cretTok@example.com/o/r.git']) {
      let e: DocDbError | undefined;
      try {
        new GitHttpRefStore({ remote });
      } catch (err) {
        e = err as DocDbError;
      }
      expect(e).toBeInstanceOf(InvalidConfig);
      expect(e?.message).toMatch(/must not contain credentials \(user:password@\): give the token in the token option/);
      expect(JSON.stringify(e)).not.toContain('s3cretTok');
    }
  });

  it('a token that cannot be a credential is refused without showing it', () => {
    expect(() => new GitHttpRefStore({ remote: 'https://h/r.git', token: 'has space' })).toThrow(
      /token must be a non-empty string of printable ASCII without spaces \(value not shown\)/,
    );
  });

  it('a server that is not a git server (an HTML page) is InvalidResponse saying so', async () => {
    const remote = await plainServer(200, 'text/html', '<html>sign in</html>');
    const e = await caught(new GitHttpRefStore({ remote }).get('a.json'));
    expect(e).toBeInstanceOf(InvalidResponse);
    expect(e.message).toMatch(/is not a git smart-HTTP server: .*info\/refs answered text\/html/);
  });

  it('a git server that only speaks protocol v0 is InvalidResponse naming protocol v2', async () => {
    const remote = await plainServer(
      200,
      'application/x-git-upload-pack-advertisement',
      `001e# service=git-upload-pack\n0000${pkt(`${'0'.repeat(40)} capabilities^{}\0multi_ack\n`)}0000`,
    );
    const e = await caught(new GitHttpRefStore({ remote }).head());
    expect(e).toBeInstanceOf(InvalidResponse);
    expect(e.message).toMatch(/does not speak git protocol v2/);
  });

  it('a missing repository is NotFound', async () => {
    fx = await gitHttpFixture();
    const e = await caught(fx.store({ remote: `${fx.server.url}/nothing-here.git` }).head());
    expect(e).toBeInstanceOf(NotFound);
    expect(e.message).toMatch(/no git repository at .*nothing-here\.git \(HTTP 404\)/);
  });

  it('no token is AuthMissing; a wrong one is AuthInvalid; neither error carries a token', async () => {
    fx = await gitHttpFixture();
    const none = await caught(new GitHttpRefStore({ remote: fx.remote }).get('a.json'));
    expect(none).toBeInstanceOf(AuthMissing);
    expect(none.message).toMatch(/needs credentials: give a token/);
    const wrong = await caught(new GitHttpRefStore({ remote: fx.remote, token: 'wrong-token-xyz' }).get('a.json'));
    expect(wrong).toBeInstanceOf(AuthInvalid);
    expect(wrong.message).toMatch(/rejected the token \(HTTP 401\)/);
    for (const e of [none, wrong]) {
      expect(JSON.stringify(e)).not.toMatch(/wrong-token-xyz|test-token/);
      expect(String(e.stack)).not.toContain('wrong-token-xyz');
    }
  });

  it('a section ref that a branch shadows (refs/heads/<ref>) is InvalidConfig naming both refs', async () => {
    fx = await gitHttpFixture();
    const store = fx.store();
    const { version } = await store.put('a.json', '1');
    git(['--git-dir', fx.repoDir, 'update-ref', 'refs/heads/refs/docdb/documents', version as string]);
    const e = await caught(store.get('a.json'));
    expect(e).toBeInstanceOf(InvalidConfig);
    expect(e.data.field).toBe('ref');
    expect(e.message).toMatch(
      /has refs\/heads\/refs\/docdb\/documents beside the section refs\/docdb\/documents: git resolves refs\/docdb\/documents ambiguously/,
    );
    expect(await caught(store.put('b.json', '2'))).toBeInstanceOf(InvalidConfig);
    git(['--git-dir', fx.repoDir, 'update-ref', '-d', 'refs/heads/refs/docdb/documents']);
    expect((await store.get('a.json'))?.version).toBe(version);
    expect(TOKEN).toBeTruthy();
  });
});
