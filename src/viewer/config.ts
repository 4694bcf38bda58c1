/**
 * The page's configuration, fixed by whoever serves it — never by the URL a visitor follows: a link
 * that could name the API origin could send a visitor's token to any server. `docdb view --api-url` and
 * the Pages workflow write `<meta name="docdb-api-url">` into index.html.
 */
export const DEFAULT_API_URL = 'https://api.github.com';

/**
 * The API base URL from the page's `<meta name="docdb-api-url">` (https, or http on loopback only).
 *
 * @example
 * const apiUrl = readApiUrl(document);
 */
export function readApiUrl(doc: Document): string {
  const raw = doc.querySelector('meta[name="docdb-api-url"]')?.getAttribute('content')?.trim();
  if (!raw) return DEFAULT_API_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`the page's docdb-api-url ${JSON.stringify(raw)} is not a URL`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new Error(`the page's docdb-api-url must be https (or http on loopback), got ${url.origin}`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The web origin that shows commits for an API origin: api.github.com → github.com, a GHES
 * `https://HOST/api/v3` → `https://HOST`; anything else (an emulator) has none.
 */
export function webOriginOf(apiUrl: string): string | undefined {
  const url = new URL(apiUrl);
  if (url.hostname === 'api.github.com') return 'https://github.com';
  if (url.pathname.replace(/\/+$/, '') === '/api/v3') return url.origin;
  return undefined;
}
