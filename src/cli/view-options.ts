/**
 * `docdb view`'s flags, checked all at once (every problem named with its flag and what is allowed, as
 * every command does: args.ts `checkUsage`).
 */
import { reservedSpaceProblem } from '../core/refname.js';
import { checkUsage, type FlagValues, str } from './args.js';
import { UsageError } from './io.js';

export interface ViewOptions {
  port: number;
  host: string;
  apiUrl: string;
  repo?: string | undefined;
  section?: string | undefined;
  demo: boolean;
  out?: string | undefined;
  /** With `out`: write into a directory that is not empty. */
  force: boolean;
}

export const DEFAULT_API_URL = 'https://api.github.com';
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
// The viewer's own rules for `repo` and `section` (src/viewer/state.ts), so a link it prints always opens.
const REPO = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
const SECTION = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

function portOf(v: string | undefined): number {
  if (v === undefined) return 0;
  if (!/^\d{1,5}$/.test(v) || Number(v) > 65535) {
    throw new UsageError(
      `--port must be a whole number from 0 to 65535 (0: a free port), got ${JSON.stringify(v)}`,
      '--port',
    );
  }
  return Number(v);
}

/**
 * The API URL the page may use: https, or http on loopback only — the page itself refuses anything else
 * (src/viewer/config.ts `readApiUrl`), so the command says so before serving a page that cannot work.
 */
function apiUrlOf(v: string | undefined): string {
  if (v === undefined) return DEFAULT_API_URL;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new UsageError(
      `--api-url must be a URL such as https://api.github.com, got ${JSON.stringify(v)}`,
      '--api-url',
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.includes(url.hostname))) {
    throw new UsageError(
      `--api-url must be https (http only on loopback: ${LOOPBACK.join(', ')}), got ${JSON.stringify(v)}`,
      '--api-url',
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError(
      '--api-url must not carry credentials, a query or a fragment: the page is public',
      '--api-url',
    );
  }
  return url.href.replace(/\/+$/, '');
}

function matching(name: string, v: string | undefined, rule: RegExp, what: string): string | undefined {
  if (v !== undefined && !rule.test(v))
    throw new UsageError(`--${name} must be ${what}, got ${JSON.stringify(v)}`, `--${name}`);
  return v;
}

/** `--section`: the viewer's rule, and never a section's reserved space (core/refname.ts RESERVED_REF_SPACES). */
function sectionOf(v: string | undefined): string | undefined {
  const problem = v === undefined ? undefined : reservedSpaceProblem(v);
  if (problem) throw new UsageError(`--section ${problem}`, '--section');
  return matching('section', v, SECTION, 'a section name such as documents');
}

/** Flags that do not go together, named both. */
function exclusive(values: FlagValues): void {
  const given = (n: string) => values[n] !== undefined && values[n] !== false;
  const pairs: [string, string, string][] = [
    ['demo', 'out', 'the demo emulator lives only while the command serves'],
    ['demo', 'api-url', 'the demo page reads the emulator it starts'],
    ['demo', 'repo', 'the demo opens octo-org/widgets'],
    ['demo', 'section', 'the demo opens its own section'],
    ['out', 'port', 'a written site is not served'],
    ['out', 'host', 'a written site is not served'],
  ];
  for (const [a, b, why] of pairs) {
    if (given(a) && given(b)) throw new UsageError(`--${a} and --${b} do not go together: ${why}`, `--${b}`);
  }
  if (given('force') && !given('out')) {
    throw new UsageError(
      '--force goes with --out DIR: it writes the site into a directory that is not empty',
      '--force',
    );
  }
}

/**
 * Read and check `docdb view`'s flags.
 *
 * @example
 * const options = await viewOptions({ port: '4173', repo: 'octo/data' }); // { port: 4173, host: '127.0.0.1', … }
 */
export async function viewOptions(values: FlagValues): Promise<ViewOptions> {
  const [port, apiUrl, repo, section, , host, out] = await checkUsage(
    () => portOf(str(values, 'port')),
    () => apiUrlOf(str(values, 'api-url')),
    () => matching('repo', str(values, 'repo'), REPO, 'owner/name (letters, digits, "-", "." and "_")'),
    () => sectionOf(str(values, 'section')),
    () => exclusive(values),
    () => str(values, 'host') ?? '127.0.0.1',
    () => str(values, 'out'),
  );
  return { port, host, apiUrl, repo, section, demo: values.demo === true, out, force: values.force === true };
}
