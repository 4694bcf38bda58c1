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

/** How often the page asks whether the section moved (ms): GitHub's ref replies are cacheable for 60 s. */
export const DEFAULT_WATCH_INTERVAL = 60_000;

/**
 * The live-update poll interval from `<meta name="docdb-watch-interval" content="ms">` (whoever serves
 * the page sets it; tests set it small). Each poll is a conditional ref read: a 304 while nothing moved.
 *
 * @example
 * const interval = readWatchInterval(document); // 60000 without the meta tag
 */
export function readWatchInterval(doc: Document): number {
  const raw = doc.querySelector('meta[name="docdb-watch-interval"]')?.getAttribute('content')?.trim();
  if (!raw) return DEFAULT_WATCH_INTERVAL;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 10 || ms > 86_400_000) {
    throw new Error(
      `the page's docdb-watch-interval must be whole milliseconds from 10 to 86400000, got ${JSON.stringify(raw)}`,
    );
  }
  return ms;
}
