/**
 * The viewer as a static site (issue 29 item 10), for `docdb view` to serve and `docdb view --out` to
 * write (the GitHub Pages workflow): `viewer/` holds the page (index.html with the API URL fixed in its
 * `<meta name="docdb-api-url">`, viewer.js, viewer.css, and open.js for the root page) and the root
 * `index.html` sends a visitor on to it: with the link's own query when it has one (a shared `/?repo=…`),
 * else on the repository's section named when the site was written. Every link is relative, so the site
 * works under any sub-path (`https://owner.github.io/repo/`).
 *
 * Where the page comes from: run from the TypeScript sources (`npx tsx src/cli/main.ts view`, a checkout)
 * it is built on the fly from src/viewer/ with scripts/build-browser.mjs, so it is never a stale lib/;
 * from the installed package it is the shipped lib/viewer/ (built by `npm run build:browser`).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvalidConfig } from '../core/errors.js';

/** This package (or checkout): src/cli/ and lib/cli/ are both two levels below it. */
const PACKAGE_ROOT = resolve(import.meta.dirname, '../..');
const PAGE_FILES = ['index.html', 'viewer.js', 'viewer.css'] as const;

/** The built page: its directory, where it came from, and how to drop it (a temporary build). */
export interface ViewerPage {
  dir: string;
  source: 'lib/viewer' | 'built from src/viewer';
  dispose(): Promise<void>;
}

const hasPage = (dir: string) => PAGE_FILES.every((f) => existsSync(join(dir, f)));

/** Build src/viewer/ into a temporary directory with scripts/build-browser.mjs (needs esbuild, a dev dependency). */
async function buildFromSources(root: string): Promise<ViewerPage | undefined> {
  const script = join(root, 'scripts/build-browser.mjs');
  if (!existsSync(script) || !existsSync(join(root, 'src/viewer/main.ts'))) return undefined;
  const out = await mkdtemp(join(tmpdir(), 'docdb-view-build-'));
  try {
    const { buildViewer } = (await import(pathToFileURL(script).href)) as {
      buildViewer(outDir: string): Promise<{ dir: string }>;
    };
    const { dir } = await buildViewer(out);
    return { dir, source: 'built from src/viewer', dispose: () => rm(out, { recursive: true, force: true }) };
  } catch (e) {
    await rm(out, { recursive: true, force: true });
    // esbuild missing (a checkout without `npm ci`): say what to run; any other build failure as it is.
    if ((e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw e;
  }
}

/**
 * Find the viewer page: built from the sources when running from them, else the package's lib/viewer/.
 * Throws `InvalidConfig` saying what to run when neither is there.
 *
 * @example
 * const page = await viewerPage();
 * try { await writeSite('_site', page, { apiUrl: 'https://api.github.com' }); } finally { await page.dispose(); }
 */
export async function viewerPage(
  root = PACKAGE_ROOT,
  fromSources = import.meta.filename.endsWith('.ts'),
): Promise<ViewerPage> {
  if (fromSources) {
    const built = await buildFromSources(root);
    if (built) return built;
  }
  const lib = join(root, 'lib/viewer');
  if (hasPage(lib)) return { dir: lib, source: 'lib/viewer', dispose: async () => {} };
  throw new InvalidConfig(
    'viewer',
    `the viewer page is not built (${PAGE_FILES.map((f) => `lib/viewer/${f}`).join(', ')} missing) and cannot be built here: run "npm ci" then "npm run build:browser" in ${root}`,
  );
}

/**
 * index.html with its `<meta name="docdb-api-url">` set to `apiUrl` (an attribute value: `&`, `"` and `<`
 * escaped) and its Content-Security-Policy's `connect-src` narrowed to that URL's origin. The same rewrite as scripts/build-browser.mjs `withApiUrl`, which the installed package does
 * not ship; __tests__/cli/view-site.test.ts holds the two to the same output.
 *
 * @example
 * pageWithApiUrl(html, 'http://127.0.0.1:8787'); // <meta name="docdb-api-url" content="http://127.0.0.1:8787" />
 */
export function pageWithApiUrl(html: string, apiUrl: string): string {
  const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const escaped = attr(apiUrl);
  // The page's Content-Security-Policy lets it talk to this origin only.
  const origin = attr(new URL(apiUrl).origin);
  const out = html
    .replace(/(<meta name="docdb-api-url" content=")[^"]*(")/, (_m, a, b) => `${a}${escaped}${b}`)
    .replace(/(http-equiv="Content-Security-Policy"\s+content="[^"]*?connect-src )[^;"]*/, (_m, a) => `${a}${origin}`);
  if (out === html && !html.includes(`content="${escaped}"`)) {
    throw new InvalidConfig('viewer', 'the viewer page has no <meta name="docdb-api-url" content="…"> to set');
  }
  return out;
}

/** What the site opens on: the viewer's query string for a repository's section ('' for the open form). */
export function openQuery(open: { repo?: string | undefined; section?: string | undefined }): string {
  if (open.repo === undefined) return '';
  const params = new URLSearchParams({ repo: open.repo });
  if (open.section !== undefined && open.section !== 'documents') params.set('section', open.section);
  // `/` is allowed in a query (RFC 3986 §3.4): the link shows owner/name as typed.
  return `?${params.toString().replace(/%2F/gi, '/')}`;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The root page's script (`viewer/open.js`): on to the viewer with the link's own query and fragment — a
 * shared `/?repo=…` opens what it names, byte for byte — or, without a query, the section the site was
 * written for (the page's link). Only the query and the fragment come from the address, behind a fixed
 * relative path: whatever a link holds, the visitor stays on this site.
 */
const OPEN_SCRIPT = `// docdb view's root page: open the viewer with this link's own query, else the section the site opens.
const own = location.search.length > 1 ? 'viewer/' + location.search : null;
location.replace((own ?? document.getElementById('open').getAttribute('href')) + location.hash);
`;

/**
 * The root page: straight on to the viewer by its script (a meta refresh could not carry the link's query;
 * it stays for a browser without scripts), with a link as well. Relative, so it works under any sub-path.
 */
function rootPage(target: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'" />
    <noscript><meta http-equiv="refresh" content="0; url=${attr(target)}" /></noscript>
    <title>docdb viewer</title>
  </head>
  <body>
    <p><a id="open" href="${attr(target)}">Open the docdb viewer</a></p>
    <script src="viewer/open.js"></script>
  </body>
</html>
`;
}

/**
 * The headers a server of the site sends with every answer: the page's own Content-Security-Policy, read
 * from its `<meta>` (so the two agree on every source, `connect-src` included), plus `frame-ancestors
 * 'none'`, and `X-Frame-Options: DENY` for browsers without it. Only a header can forbid framing: a meta
 * policy's `frame-ancestors` is ignored, as is a meta X-Frame-Options. Throws `InvalidConfig` for a page
 * with no policy (a server would send none).
 *
 * @example
 * siteHeaders(await readFile('_site/viewer/index.html', 'utf8'));
 * // { 'Content-Security-Policy': "default-src 'none'; … connect-src https://api.github.com; … frame-ancestors 'none'", 'X-Frame-Options': 'DENY' }
 */
export function siteHeaders(pageHtml: string): Record<string, string> {
  const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(pageHtml)?.[1];
  if (meta === undefined) throw new InvalidConfig('viewer', 'the viewer page has no Content-Security-Policy <meta>');
  const policy = meta
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .trim();
  return {
    'Content-Security-Policy': `${policy.replace(/;$/, '')}; frame-ancestors 'none'`,
    'X-Frame-Options': 'DENY',
  };
}

/**
 * Write the site into `out` (created when missing; its `viewer/` and `index.html` replaced, anything else
 * left as it is) and return the relative link the root page opens without a query (`viewer/?repo=…`).
 *
 * @example
 * await writeSite('_site', page, { apiUrl: 'https://api.github.com', repo: 'octo/data' }); // 'viewer/?repo=octo/data'
 */
export async function writeSite(
  out: string,
  page: ViewerPage,
  options: { apiUrl: string; repo?: string | undefined; section?: string | undefined },
): Promise<string> {
  const dir = join(out, 'viewer');
  await rm(dir, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  // Every file of the page (a later build may add chunks or images), then its index.html with the API URL.
  await cp(page.dir, dir, { recursive: true });
  const html = await readFile(join(page.dir, 'index.html'), 'utf8');
  await writeFile(join(dir, 'index.html'), pageWithApiUrl(html, options.apiUrl));
  await writeFile(join(dir, 'open.js'), OPEN_SCRIPT);
  const target = `viewer/${openQuery(options)}`;
  await writeFile(join(out, 'index.html'), rootPage(target));
  return target;
}
