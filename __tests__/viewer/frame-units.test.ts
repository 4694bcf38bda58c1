/** The frame's pure parts in Node: the CSV reader, the rate limit and budget check, URL checks, counts per type. */
import { describe, expect, it } from 'vitest';
import { parseRateLimit as rateLimitOf } from '../../src/browser/index.js';
import { DEFAULT_WATCH_INTERVAL, readWatchInterval } from '../../src/viewer/config.js';
import { CsvSyntaxError, parseCsv } from '../../src/viewer/frame/csv.js';
import { checkBudget, meterText, remainingNow } from '../../src/viewer/frame/rate-limit.js';
import { formatViewState, parseViewState } from '../../src/viewer/state.js';
import { summarize } from '../../src/viewer/views/overview.js';

describe('parseCsv (RFC 4180)', () => {
  it('reads quoted commas, CRLF and LF inside quotes, doubled quotes and empty fields', () => {
    const text = 'a,b,c\r\n1,"x, y",\r\n"multi\r\nline","say ""hi""",""\nlast,,end';
    expect(parseCsv(text).rows).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, y', ''],
      ['multi\r\nline', 'say "hi"', ''],
      ['last', '', 'end'],
    ]);
  });

  it('a trailing line break adds no record; an empty text has none', () => {
    expect(parseCsv('a\r\n').rows).toEqual([['a']]);
    expect(parseCsv('').rows).toEqual([]);
  });

  it('stops after maxRows records and says the text holds more', () => {
    expect(parseCsv('1\n2\n3\n4', 2)).toEqual({ rows: [['1'], ['2']], truncated: true });
    expect(parseCsv('1\n2', 2)).toEqual({ rows: [['1'], ['2']], truncated: false });
  });

  it('refuses what is not CSV, naming the line', () => {
    expect(() => parseCsv('a,b\nx"y,z')).toThrow(
      new CsvSyntaxError(2, 'a quote inside an unquoted field (quote the whole field)'),
    );
    expect(() => parseCsv('a\n"open,b\n')).toThrow('line 2: a quoted field is never closed');
    expect(() => parseCsv('"a"b,c')).toThrow('line 1: text after a closing quote');
    // The line counts the line breaks inside quoted fields before the fault.
    expect(() => parseCsv('"x\ny",1\nq"')).toThrow('line 3:');
  });
});

describe('rate limit and budget', () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  const rl = { limit: 60, remaining: 5, reset: 1_000, used: 55, resource: 'core' };

  it('reads the x-ratelimit headers, and nothing from an answer without them or with junk', () => {
    expect(
      rateLimitOf(
        headers({
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '5',
          'x-ratelimit-reset': '1000',
          'x-ratelimit-used': '55',
        }),
      ),
    ).toEqual(rl);
    expect(rateLimitOf(headers({}))).toBeUndefined();
    expect(
      rateLimitOf(headers({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': 'lots', 'x-ratelimit-reset': '1000' })),
    ).toBeUndefined();
  });

  it('counts the window as full again after its reset time', () => {
    expect(remainingNow(rl, 999_999)).toBe(5);
    expect(remainingNow(rl, 1_000_000)).toBe(60);
  });

  it('says no to an action over what is left, with the anonymous allowance', () => {
    const no = checkBudget({ requests: 20, what: 'This chart', rateLimit: rl, hasToken: false, nowMs: 0 });
    expect(no).toEqual({
      ok: false,
      remaining: 5,
      message:
        'This chart needs about 20 requests and 5 are left in this hour (GitHub allows 60 an hour without a token; a token gives 5,000).',
    });
    expect(checkBudget({ requests: 5, what: 'x', rateLimit: rl, hasToken: false, nowMs: 0 }).ok).toBe(true);
    // After the reset, the same action fits again.
    expect(checkBudget({ requests: 20, what: 'x', rateLimit: rl, hasToken: false, nowMs: 1_000_000 }).ok).toBe(true);
    // Nothing read yet: an anonymous visitor has 60 at most.
    expect(checkBudget({ requests: 61, what: 'x', rateLimit: undefined, hasToken: false, nowMs: 0 }).ok).toBe(false);
    expect(checkBudget({ requests: 61, what: 'x', rateLimit: undefined, hasToken: true, nowMs: 0 }).ok).toBe(true);
  });

  it('the meter says what is left, when it resets and who is asking', () => {
    const time = (s: number) => `T${s}`;
    expect(meterText({ requests: 3, rateLimit: rl, hasToken: false, time })).toBe(
      'Rate limit: 5 of 60 requests left, resets at T1000 (no token: GitHub allows 60 an hour) · 3 request(s) by this page',
    );
    expect(meterText({ requests: 0, rateLimit: undefined, hasToken: true, time })).toBe(
      'Rate limit: not read yet (with your token) · 0 request(s) by this page',
    );
  });
});

describe('URL parameters', () => {
  it('names a bad ns, type or path and drops it', () => {
    const { state, problems } = parseViewState('?repo=o/r&ns=a/b&type=..&path=/etc/passwd');
    expect(problems.map((p) => p.param)).toEqual(['ns', 'type', 'path']);
    expect(state).toMatchObject({ view: 'overview' });
    expect(state?.ns).toBeUndefined();
    expect(parseViewState('?repo=o/r&path=a/../../b.json').problems[0]?.message).toContain('no ".."');
  });

  it('a view without what it needs opens the overview and says why', () => {
    for (const [query, message] of [
      ['view=table&ns=a', 'view=table needs "type"; showing the overview instead'],
      ['view=document&ns=a&type=b', 'view=document needs "id"; showing the overview instead'],
    ] as const) {
      const { state, problems } = parseViewState(`?repo=o/r&${query}`);
      expect(state?.view).toBe('overview');
      expect(problems.map((p) => p.message)).toEqual([message]);
    }
  });

  it("view=file without a path is the list of the ref's data files, not a problem", () => {
    const { state, problems } = parseViewState('?repo=o/r&ref=refs/heads/main&view=file');
    expect([state?.view, state?.path, problems]).toEqual(['file', undefined, []]);
    expect(formatViewState(state as never)).toBe('repo=o%2Fr&ref=refs%2Fheads%2Fmain&view=file');
  });

  it('good states still round-trip', () => {
    const query = 'repo=o%2Fr&ref=refs%2Fheads%2Fmain&path=data%2Fx.csv';
    expect(formatViewState(parseViewState(`?${query}`).state as never)).toBe(query);
    expect(parseViewState('?repo=o/r&view=table&ns=github&type=repo').problems).toEqual([]);
  });
});

describe('overview counts', () => {
  it('counts documents per type from the keys, marks indexed and searchable types, and counts other files', () => {
    expect(
      summarize([
        '_docdb/index/github/repo/manifest.json',
        '_docdb/index/github/repo/parts/0.csv',
        '_docdb/search/people/user/manifest.json',
        '_docdb/search/people/user/terms/0.txt',
        'github/repo/octo/a.json',
        'github/repo/octo/b.json',
        'people/user/ada.json',
        'README.md',
      ]),
    ).toEqual({
      types: [
        { ns: 'github', type: 'repo', count: 2, indexed: true, searchable: false },
        { ns: 'people', type: 'user', count: 1, indexed: false, searchable: true },
      ],
      otherFiles: 1,
    });
  });
});

describe('watch interval', () => {
  const page = (content: string | null) =>
    ({ querySelector: () => (content === null ? null : { getAttribute: () => content }) }) as unknown as Document;

  it('defaults to a minute with a token, five without (anonymous 304s count), and takes the meta tag', () => {
    expect(readWatchInterval(page(null), { hasToken: true })).toBe(DEFAULT_WATCH_INTERVAL.token);
    expect(DEFAULT_WATCH_INTERVAL.token).toBe(60_000);
    expect(readWatchInterval(page(null), { hasToken: false })).toBe(300_000);
    expect(readWatchInterval(page('250'), { hasToken: false })).toBe(250);
  });

  it('refuses a value that is not whole milliseconds in range', () => {
    for (const bad of ['0', '1.5', 'soon', '-5']) {
      expect(() => readWatchInterval(page(bad), { hasToken: true })).toThrow(
        'docdb-watch-interval must be whole milliseconds from 10 to 86400000',
      );
    }
  });
});
