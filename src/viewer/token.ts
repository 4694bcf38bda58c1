/**
 * The visitor's token: typed in by them, kept in this module's memory — or, only when they ask, in
 * sessionStorage for this tab. Never localStorage, IndexedDB, the URL or a log (issue 29 item 8).
 */
const SESSION_KEY = 'docdb-viewer-token';
let token: string | null = null;

/** The token for the next request (memory first, then this tab's sessionStorage if it was kept there). */
export function currentToken(storage: Storage | undefined = globalThis.sessionStorage): string | null {
  if (token !== null) return token;
  const kept = storage?.getItem(SESSION_KEY) ?? null;
  return kept === '' ? null : kept;
}

/**
 * Use a token (null forgets it everywhere). `keepForTab` also keeps it in sessionStorage until the tab closes.
 *
 * @example
 * setToken(input.value.trim() || null, { keepForTab: checkbox.checked });
 */
export function setToken(value: string | null, options: { keepForTab?: boolean; storage?: Storage } = {}): void {
  const storage = options.storage ?? globalThis.sessionStorage;
  token = value === '' ? null : value;
  if (token !== null && options.keepForTab) storage?.setItem(SESSION_KEY, token);
  else storage?.removeItem(SESSION_KEY);
}
