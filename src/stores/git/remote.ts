/**
 * Talking to a git remote for SubprocessGitRefStore: one `fetch` of the section ref (which is also the tip
 * check), `push --force-with-lease` (compare-and-swap on the remote). Credentials reach git only through
 * its credential helpers or `GIT_ASKPASS` (a script that reads the token from git's environment) — never
 * through an argument, a URL, a log line or an error.
 *
 * Why fetch and not `ls-remote`: git 2.39's ls-remote sends no ref prefix for a pattern (it matches
 * patterns by tail on its side), so the remote advertises every ref it has — a remote with 10,000 refs
 * costs 10,000 lines per read. A fetch refspec makes protocol v2 send `ref-prefix` lines, and the remote
 * answers only the refs under them (https://git-scm.com/docs/protocol-v2#_ls_refs).
 *
 * Why the probe refspecs: git matches a push destination by its tail (`refs/docdb/documents` also
 * matches `refs/heads/refs/docdb/documents`, `refs/tags/…`, `refs/remotes/…`, `refs/refs/…`), so such a
 * ref on the remote makes a push ambiguous or — when the section does not exist yet — sends it to that
 * branch. The same fetch brings those names into a private namespace, and a write refuses while one
 * exists (a typed error naming it) instead of writing somewhere else.
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AuthInvalid,
  AuthMissing,
  DocDbError,
  Forbidden,
  GitError,
  InvalidConfig,
  NotFound,
  TransportError,
} from '../../core/errors.js';
import { isLoopbackHost } from '../remote-api/index.js';
import { redact } from './git-command.js';
import type { GitRepository } from './repository.js';

/** Namespaces whose `<namespace><section ref>` a push to the section ref would also match (git's ref_rev_parse_rules). */
export const SHADOW_NAMESPACES = ['refs/', 'refs/tags/', 'refs/heads/', 'refs/remotes/'] as const;
/** Where the cache keeps what the remote has under those names (never pushed, pruned by every fetch). */
const PROBE = 'refs/docdb-probe/';

/** What one fetch learned about the remote. */
export interface SectionState {
  /** The section's tip, or null when the ref does not exist on the remote. */
  tip: string | null;
  /** Remote refs whose names end in the section ref (a push to it would be ambiguous). */
  shadows: string[];
}

/**
 * The error for a write while the remote has a ref that shadows the section for `git push`.
 *
 * @example
 * throw ambiguousRef('https://host/o/r.git', 'refs/docdb/documents', ['refs/heads/refs/docdb/documents']);
 */
export function ambiguousRef(remote: string, ref: string, shadows: readonly string[]): InvalidConfig {
  const one = shadows.length === 1;
  // The same error as GitHttpRefStore's for the same situation: the section ref is unusable on this remote.
  return new InvalidConfig(
    'ref',
    `${remote} has ${shadows.join(', ')}, whose name ends in the section ref ${ref}: git matches a push destination by its tail, so it cannot write ${ref} exactly while ${one ? 'that ref exists' : 'those refs exist'}. Rename or delete ${one ? 'it' : 'them'} on the remote, or use another section (--root/--section).`,
    { allowed: 'a section ref no other ref shadows', reason: 'ambiguous-ref', remote, shadows: [...shadows] },
  );
}

/** Username the askpass script answers when none is configured (GitHub accepts any with a token). */
export const DEFAULT_GIT_USERNAME = 'x-access-token';

/**
 * Check a remote before it reaches a command line: no option injection (`-…`), no credentials in
 * the URL, no `ext::` transport, no plain http with a token to another host.
 */
export function assertValidRemote(remote: unknown, options: { token?: string; allowInsecureHttp?: boolean }): string {
  const bad = (message: string, allowed: string): never => {
    throw new InvalidConfig('remote', message, { allowed });
  };
  const allowed = 'a URL (https://, ssh://, git://, file://), user@host:path, or a path';
  if (typeof remote !== 'string' || remote.trim() === '') return bad('remote must be a non-empty string', allowed);
  if (/[\0\n\r]/.test(remote)) bad('remote must not contain NUL or newlines', allowed);
  if (remote.startsWith('-')) bad(`remote ${JSON.stringify(remote)} must not start with "-"`, allowed);
  if (/^[a-z][a-z0-9+.-]*::/i.test(remote)) bad('remote helpers ("<transport>::<address>") are not allowed', allowed);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(remote)?.[1]?.toLowerCase();
  if (scheme) {
    if (!['https', 'http', 'ssh', 'git', 'file', 'git+ssh', 'ssh+git'].includes(scheme)) {
      bad(`remote scheme ${scheme}: is not supported`, allowed);
    }
    let url: URL;
    try {
      url = new URL(remote);
    } catch {
      return bad(`remote ${JSON.stringify(redact(remote, []))} is not a valid URL`, allowed);
    }
    if (url.password) {
      bad(
        'remote must not contain a password or token (it would be on a command line); use a git credential helper, ' +
          'GIT_ASKPASS, or the token option',
        'a URL without user:password@',
      );
    }
    if (scheme === 'http' && options.token && !isLoopbackHost(url.hostname) && !options.allowInsecureHttp) {
      bad(
        `remote ${url.origin} uses plain http: the token would travel in clear text; use https or set allowInsecureHttp`,
        'https:// (or http:// to loopback)',
      );
    }
  }
  return remote;
}

/**
 * Where the askpass script of a cache repository lives: in its git directory (a bare cache is its own
 * git directory; a clone's is `.git`), so it needs no temporary file and goes away with the cache.
 */
export function askpassPath(cacheDir: string): string {
  return join(cacheDir, existsSync(join(cacheDir, '.git')) ? '.git' : '', 'docdb-askpass.sh');
}

/** Write the askpass script. It holds no secret: it prints what git's environment gives it. */
export function writeAskpass(path: string): void {
  writeFileSync(
    path,
    "#!/bin/sh\n# Written by docdb: answers git's credential prompts from its environment.\n" +
      'case "$1" in\n  Username*) printf \'%s\\n\' "$DOCDB_GIT_USERNAME" ;;\n  *) printf \'%s\\n\' "$DOCDB_GIT_PASSWORD" ;;\nesac\n',
    { mode: 0o700 },
  );
  chmodSync(path, 0o700);
}

/** Environment and config that hand `token` to git through `GIT_ASKPASS` (at `script`) and nothing else. */
export function askpassSetup(
  token: string | undefined,
  username: string,
  script: string,
): { env: Record<string, string>; config: Record<string, string> } {
  if (!token) return { env: {}, config: {} };
  return {
    env: { GIT_ASKPASS: script, DOCDB_GIT_USERNAME: username, DOCDB_GIT_PASSWORD: token },
    // An empty helper list: git asks GIT_ASKPASS, and no helper stores the token ("credential approve").
    config: { 'credential.helper': '' },
  };
}

/** The line of git's stderr that says what went wrong (its first `fatal:`/`error:` line), without the prefix. */
function gitReason(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0];
  return line?.replace(/^(fatal|error):\s*/, '');
}

/** Map a failed remote command to the error every store uses for the same situation. */
export function mapRemoteError(e: unknown, context: { remote: string; ref: string; secrets: readonly string[] }) {
  if (!(e instanceof GitError)) return e;
  const stderr = String(e.data.stderr ?? '');
  const remote = redact(context.remote, context.secrets);
  const data = { remote, ref: context.ref, stderr };
  const say = (what: string) => `${what} (git: ${gitReason(stderr) ?? e.message})`;
  if (/terminal prompts disabled|could not read (Username|Password)/i.test(stderr)) {
    return new AuthMissing(
      say(`${remote} needs credentials: configure a git credential helper or give a token`),
      data,
      {
        cause: e,
      },
    );
  }
  if (
    /Authentication failed|Invalid username or password|HTTP Basic: Access denied|returned error: 401/i.test(stderr)
  ) {
    return new AuthInvalid(say(`${remote} rejected the credentials`), data, { cause: e });
  }
  if (/Permission denied|returned error: 403|not allowed|denied to/i.test(stderr)) {
    return new Forbidden(say(`no permission for ${context.ref} on ${remote}`), data, { cause: e });
  }
  if (/not found|does not appear to be a git repository|No such file or directory|returned error: 404/i.test(stderr)) {
    return new NotFound(say(`remote ${remote} was not found`), data, { cause: e });
  }
  if (
    /Could not resolve host|Connection refused|timed out|Connection reset|Could not read from remote|unable to access/i.test(
      stderr,
    )
  ) {
    return new TransportError(say(`could not reach ${remote}`), data, { cause: e });
  }
  return e;
}

/** The remote operations, bound to one remote, ref and cache repository. */
export class RemoteSection {
  /** The token, when given (`#private`: never shown by inspecting the store). */
  readonly #secrets: readonly string[];

  constructor(
    private readonly repo: GitRepository,
    readonly remote: string,
    readonly ref: string,
    secrets: readonly string[],
  ) {
    this.#secrets = secrets;
  }

  private async run(args: string[], okCodes: number[] = []) {
    try {
      return await this.repo.run(args, { okCodes });
    } catch (e) {
      throw mapRemoteError(e, { remote: this.remote, ref: this.ref, secrets: this.#secrets });
    }
  }

  /**
   * Bring the section ref (and only refs named like it) from the remote into the cache: one `git fetch`
   * with protocol v2 ref prefixes, which downloads objects only when the tip moved. Returns the tip and
   * any refs that shadow the section for a push.
   */
  async fetchSection(): Promise<SectionState> {
    const refspecs = [
      `+${this.ref}*:${this.ref}*`,
      ...SHADOW_NAMESPACES.map((ns, i) => `+${ns}${this.ref}*:${PROBE}${i}*`),
    ];
    await this.run([
      '-c',
      'gc.auto=0',
      '-c',
      'maintenance.auto=false',
      'fetch',
      '--prune',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-recurse-submodules',
      '--quiet',
      '--',
      this.remote,
      ...refspecs,
    ]);
    const { stdout } = await this.repo.run(['for-each-ref', '--format=%(refname)', PROBE]);
    const probed = new Set(stdout.toString('utf8').split('\n').filter(Boolean));
    const shadows = SHADOW_NAMESPACES.filter((_, i) => probed.has(`${PROBE}${i}`)).map((ns) => `${ns}${this.ref}`);
    return { tip: await this.repo.resolveRef(this.ref), shadows };
  }

  /**
   * Push `commit` to the section ref if the remote is still at `expected` (null: must not exist).
   * True when it landed, false when another writer moved the ref first; other failures throw.
   */
  async push(commit: string, expected: string | null): Promise<boolean> {
    const args = [
      '-c',
      'push.gpgSign=false',
      'push',
      '--porcelain',
      '--no-verify',
      '--no-follow-tags',
      '--no-recurse-submodules',
      `--force-with-lease=${this.ref}:${expected ?? ''}`,
      '--',
      this.remote,
      `${commit}:${this.ref}`,
    ];
    let result: Awaited<ReturnType<RemoteSection['run']>>;
    try {
      result = await this.run(args, [1]);
    } catch (e) {
      // The push may have landed before the connection broke: the remote tip tells.
      if (e instanceof DocDbError && (await this.remoteTip().catch(() => null)) === commit) return true;
      throw e;
    }
    const out = result.stdout.toString('utf8');
    if (result.code === 0) return this.assertExactDestination(out, commit);
    const line = out.split('\n').find((l) => l.startsWith('!') && l.includes(`:${this.ref}\t`));
    const state = await this.fetchSection();
    const now = state.tip;
    if (now === commit) return true;
    // A ref named like the section appeared on the remote after our fetch: git cannot tell which one we mean.
    if (/matches more than one/.test(result.stderr)) {
      if (state.shadows.length > 0) throw ambiguousRef(redact(this.remote, this.#secrets), this.ref, state.shadows);
      return false; // gone again already: re-plan, and the next fetch looks once more
    }
    if (line && (now !== expected || /failed to (update|lock) ref|cannot lock|stale info|fetch first/.test(line))) {
      return false;
    }
    const reason = line?.split('\t')[2] ?? result.stderr.trim();
    throw new Forbidden(`${redact(this.remote, this.#secrets)} refused ${this.ref}: ${redact(reason, this.#secrets)}`, {
      remote: redact(this.remote, this.#secrets),
      ref: this.ref,
      reason: redact(reason, this.#secrets),
    });
  }

  /** The remote tip (a fetch of the section: it also brings the commit if it is new). */
  private async remoteTip(): Promise<string | null> {
    return (await this.fetchSection()).tip;
  }

  /**
   * A push git reports as done went to the section ref itself: `--porcelain` names the destination it
   * chose. A shadowing ref created after our fetch could still capture it; say so rather than pretend.
   */
  private assertExactDestination(porcelain: string, commit: string): true {
    const done = porcelain.split('\n').filter((l) => /^[ *+=-]\t/.test(l));
    const wrong = done.map((l) => l.split('\t')[1]?.split(':')[1]).filter((dst) => dst && dst !== this.ref);
    if (wrong.length > 0) {
      throw new InvalidConfig(
        'ref',
        `${redact(this.remote, this.#secrets)}: git pushed ${commit} to ${wrong.join(', ')} instead of ${this.ref} (a ref whose name ends in the section ref appeared on the remote); rename or delete it there`,
        {
          allowed: 'a section ref no other ref shadows',
          reason: 'ambiguous-ref',
          remote: redact(this.remote, this.#secrets),
          shadows: wrong,
        },
      );
    }
    return true;
  }
}
