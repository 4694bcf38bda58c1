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

/**
 * How often the page asks whether the section moved (ms), by default: a minute with a token (GitHub's ref
 * replies are cacheable for 60 s, and an authorized 304 costs no rate limit); five minutes without one,
 * because GitHub counts an anonymous 304 against the 60 requests an hour (12 an hour, not all 60).
 * https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate
 */
export const DEFAULT_WATCH_INTERVAL = { token: 60_000, anonymous: 300_000 } as const;

/**
 * The live-update poll interval: `<meta name="docdb-watch-interval" content="ms">` when whoever serves the
 * page set one (tests set it small), else the default for a visitor with or without a token.
 *
 * @example
 * const interval = readWatchInterval(document, { hasToken: false }); // 300000 without the meta tag
 */
export function readWatchInterval(doc: Document, visitor: { hasToken: boolean }): number {
  const raw = doc.querySelector('meta[name="docdb-watch-interval"]')?.getAttribute('content')?.trim();
  if (!raw) return visitor.hasToken ? DEFAULT_WATCH_INTERVAL.token : DEFAULT_WATCH_INTERVAL.anonymous;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 10 || ms > 86_400_000) {
    throw new Error(
      `the page's docdb-watch-interval must be whole milliseconds from 10 to 86400000, got ${JSON.stringify(raw)}`,
    );
  }
  return ms;
}
