/**
 * The remote of a GitHttpRefStore: an http(s) URL of a repository, checked before any request, and
 * the one Authorization header the token travels in. Credentials never go in the URL (it appears in
 * messages and logs); the token is sent only to the remote's own origin (see http-client.ts).
 */
import { InvalidConfig } from '../../core/errors.js';
import { isLoopbackHost } from '../remote-api/index.js';

/** A checked remote: the repository URL without a trailing slash, and its origin. */
export interface Remote {
  /** `https://host/owner/repo.git` (no credentials, query or fragment). */
  url: string;
  origin: string;
}

const ALLOWED = 'an http(s) URL of a repository, e.g. https://gitea.example.com/owner/data.git';

function bad(message: string, allowed = ALLOWED): never {
  throw new InvalidConfig('remote', message, { allowed });
}

/**
 * Check a remote URL: http(s) only, no `user:password@` (take the token separately), no query or
 * fragment, plain http only to loopback unless `allowInsecureHttp`.
 *
 * @example
 * parseRemote('https://gitlab.com/group/data.git', {}).origin; // 'https://gitlab.com'
 */
export function parseRemote(remote: unknown, options: { allowInsecureHttp?: boolean }): Remote {
  if (typeof remote !== 'string' || remote.trim() === '') return bad('remote must be a non-empty string');
  let url: URL;
  try {
    url = new URL(remote);
  } catch {
    return bad('remote is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    // Only the scheme is echoed: the rest of a malformed URL may hold a secret.
    bad(`remote scheme ${url.protocol} is not supported: GitHttpRefStore speaks git's smart HTTP only`);
  }
  if (url.username || url.password) {
    bad(
      'remote must not contain credentials (user:password@): give the token in the token option',
      'a URL without user:password@',
    );
  }
  if (url.search || url.hash) bad('remote must not have a query or fragment', 'a URL without ? or #');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.allowInsecureHttp) {
    bad(
      `remote ${url.origin} uses plain http: the token and data would travel in clear text; use https or set allowInsecureHttp`,
      'https:// (or http:// to loopback)',
    );
  }
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, origin: url.origin };
}

/**
 * The username git hosts expect with a token as the password (HTTP Basic), by host:
 * GitHub `x-access-token`, GitLab `oauth2`, Bitbucket Cloud `x-token-auth`; anything else (Gitea,
 * Forgejo, a self-hosted `git http-backend`) takes the token as the password with any username —
 * docdb sends `docdb`. Give `username` to override (a Gitea user name, `gitlab-ci-token`, …).
 *
 * @example
 * defaultUsername('gitlab.com'); // 'oauth2'
 */
export function defaultUsername(hostname: string): string {
  const h = hostname.toLowerCase();
  if (h === 'github.com' || h.endsWith('.github.com') || h.endsWith('.ghe.com')) return 'x-access-token';
  if (h === 'gitlab.com' || h.startsWith('gitlab.')) return 'oauth2';
  if (h === 'bitbucket.org') return 'x-token-auth';
  return 'docdb';
}

/** Check a token or username shape without echoing it (printable ASCII, no `:` in a username). */
export function assertCredentialShape(value: unknown, field: 'token' | 'username'): asserts value is string {
  const ok =
    typeof value === 'string' && /^[\x21-\x7e]+$/.test(value) && !(field === 'username' && value.includes(':'));
  if (!ok) {
    throw new InvalidConfig(
      field,
      `${field} must be a non-empty string of printable ASCII without spaces${field === 'username' ? ' or ":"' : ''} (value not shown)`,
      { allowed: field === 'token' ? 'a token' : 'a user name' },
    );
  }
}

/**
 * The `Authorization` header value for `username:token` (HTTP Basic, RFC 7617), which every git host
 * accepts over smart HTTP. Built per request and never stored anywhere else.
 *
 * @example
 * basicAuth('oauth2', token); // 'Basic b2F1dGgyOi4uLg=='
 */
export function basicAuth(username: string, token: string): string {
  return `Basic ${btoa(`${username}:${token}`)}`;
}
