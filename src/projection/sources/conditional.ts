/**
 * Conditional source reads: a list page read on the previous run is asked for again with
 * `If-None-Match: <etag>`; a 304 costs no primary rate-limit budget when authorized, and the page is known
 * unchanged, so its documents are too (https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate).
 *
 * The ETags, and the document keys each page produced, are kept in the projection's `_docdb/state/…` file,
 * keyed by endpoint and by token identity (GitHub's ETags depend on the token: a fresh `GITHUB_TOKEN` per run
 * never matches, a PAT or App installation reused across runs does). The request itself is conditional-get.ts.
 */
import { utf8 } from '../../core/bytes.js';
import { sha1Hex } from '../../core/git/sha1.js';
import { REPO_RE } from '../spec/index.js';
import { confineToApi, isRefusal, sameEndpoint } from './api-url.js';

/**
 * Identity of a token for keying ETags in the committed state (`RunOptions.tokenIdentity`): a salted hash
 * prefix, never the token itself. GitHub's ETags depend on the token, so ETags seen with another token are
 * never sent.
 *
 * @example
 * runProjections({ ..., tokenIdentity: tokenIdentity(process.env.GITHUB_TOKEN) });
 */
export function tokenIdentity(token: string | undefined): string {
  if (!token) return 'anonymous';
  return sha1Hex(utf8(`docdb etag key\0${token}`)).slice(0, 16);
}

/** What the previous run learned about one endpoint key (a page URL, or a repository for `repository` over REST). */
export interface ConditionalEntry {
  /** One ETag per request that built the page (e.g. the repository and its branch list). */
  etags: string[];
  /** Document keys produced from this page (set by the runner). */
  keys?: string[];
  /** Next page (Link rel="next") the page pointed at, so a 304 can continue the walk. */
  next?: string;
  /** Repository names a listing page held (`owner/*` over REST), so a 304 still knows them. */
  names?: string[];
}

/** The `conditional` part of a projection's state file. */
export interface StoredConditional {
  /** Token identity the ETags were seen with (a hash, never the token). */
  token: string;
  entries: Record<string, ConditionalEntry>;
}

/**
 * The warning for a stored entry that is not used: it names the entry's key and the problem, never the
 * stored URL (the state is untrusted text).
 *
 * @example
 * log(ignoredState('GET /repos/o/r/releases?per_page=100', 'its next-page URL leaves the API path'));
 */
export function ignoredState(key: string, problem: string): string {
  return `warning: ignored the stored state of ${JSON.stringify(key.slice(0, 200))}: ${problem}; reading it again`;
}

/**
 * The entries of a stored state that may be used: an entry whose next-page URL leaves the API (another
 * origin, outside the API path, dot segments) or points at another endpoint than the entry's own (only the
 * query may differ), or whose repository names are not `owner/name`, was not written by docdb — the state
 * lives in the section, which anyone with write access can edit. Such an entry is dropped (its page is read
 * again without `If-None-Match`) and a warning names it, never the URL.
 *
 * @example
 * const trusted = trustedConditional(state.conditional, 'https://api.github.com', (line) => console.log(line));
 */
export function trustedConditional(
  stored: StoredConditional | undefined,
  apiUrl: string | undefined,
  log: (line: string) => void,
): StoredConditional | undefined {
  if (!stored) return undefined;
  const entries: Record<string, ConditionalEntry> = {};
  for (const [key, entry] of Object.entries(stored.entries)) {
    const problem = entryProblem(key, entry, apiUrl);
    if (problem === undefined) entries[key] = entry;
    else log(ignoredState(key, problem));
  }
  return { token: stored.token, entries };
}

function entryProblem(key: string, entry: ConditionalEntry, apiUrl: string | undefined): string | undefined {
  if (entry.next !== undefined) {
    const r = confineToApi(apiUrl, entry.next);
    if (isRefusal(r)) return `its next-page URL ${r.reason}`;
    // Keys of list pages are `GET <path>`; docdb stores a next page only when GitHub's link kept the path.
    const page = /^GET (\/.*)$/s.exec(key)?.[1];
    if (page === undefined || !sameEndpoint(apiUrl, page, r.path)) {
      return 'its next-page URL is not another page of the same endpoint';
    }
  }
  if (entry.names?.some((name) => !REPO_RE.test(name) || /\/\.\.?$/.test(name))) {
    return 'it lists a repository name that is not owner/name';
  }
  return undefined;
}

/**
 * The ETags of the previous run (to send) and of this run (to store).
 *
 * @example
 * const book = new ConditionalBook(state.conditional, tokenId, (key) => tipKeys.has(key));
 * const etag = book.etags('GET /orgs/o/repos?per_page=100')?.[0];
 */
export class ConditionalBook {
  private readonly next: Record<string, ConditionalEntry> = {};

  constructor(
    private readonly previousState: StoredConditional | undefined,
    /** Token identity of this run; undefined disables conditional reads (nothing to key ETags by). */
    private readonly token: string | undefined,
    /** Whether a document key is still in the section (a page whose documents were removed must be re-read). */
    private readonly keyExists: (key: string) => boolean,
    /** False in backfill mode: send no ETags (re-read everything), but still record them. */
    private readonly send = true,
  ) {}

  get enabled(): boolean {
    return this.token !== undefined;
  }

  /** The previous run's entry, when it was seen with this token. */
  previous(key: string): ConditionalEntry | undefined {
    if (!this.token || this.previousState?.token !== this.token) return undefined;
    return this.previousState.entries[key];
  }

  /** ETags to send for `key`: only when the previous entry's documents are all still in the section. */
  etags(key: string): string[] | undefined {
    if (!this.send) return undefined;
    const prev = this.previous(key);
    if (!prev || prev.etags.length === 0) return undefined;
    if (prev.keys && !prev.keys.every((k) => this.keyExists(k))) return undefined;
    return prev.etags;
  }

  /** Record what this run saw for `key` (documents are added by the runner with `addKeys`). */
  save(key: string, entry: ConditionalEntry): void {
    if (!this.token) return;
    this.next[key] = { ...entry };
  }

  addKeys(key: string, keys: readonly string[]): void {
    const e = this.next[key];
    if (e) e.keys = [...(e.keys ?? []), ...keys];
  }

  /** What to store in the state file (undefined when conditional reads are off or nothing was recorded). */
  toState(): StoredConditional | undefined {
    if (!this.token || Object.keys(this.next).length === 0) return undefined;
    const entries: Record<string, ConditionalEntry> = {};
    for (const k of Object.keys(this.next).sort()) {
      const e = this.next[k]!;
      entries[k] = {
        etags: e.etags,
        ...(e.keys ? { keys: [...new Set(e.keys)].sort() } : {}),
        ...(e.next ? { next: e.next } : {}),
        ...(e.names ? { names: e.names } : {}),
      };
    }
    return { token: this.token, entries };
  }
}
