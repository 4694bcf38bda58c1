/**
 * The page frame: reads the state from the URL, keeps one client per (repository, ref), draws the view
 * the state names into `#view`, shows problems and errors as sentences, and keeps the request count and
 * the rate limit left in view. Views change the page only through `ctx.navigate` (history entries).
 */
import { type DocDbClient, explainError, loadDocDbClient, type RateLimit } from '../browser/index.js';
import { readApiUrl, webOriginOf } from './config.js';
import type { BudgetVerdict, ViewContext } from './context.js';
import { clear, h } from './dom.js';
import { formatViewState, parseViewState, type ViewState } from './state.js';
import { currentToken } from './token.js';
import { VIEW_OF } from './views/index.js';

/** What the page exposes for its own tests and for people poking at it in the console. */
export interface ViewerStats {
  requests: number;
  rateLimit?: RateLimit;
}

interface Frame {
  problems: HTMLElement;
  view: HTMLElement;
  status: HTMLElement;
  meter: HTMLElement;
}

function buildFrame(doc: Document): Frame {
  const frame: Frame = {
    problems: h('div', { class: 'problems', attrs: { role: 'alert' } }),
    view: h('main', { class: 'view', attrs: { id: 'view', tabindex: -1 } }),
    status: h('p', { class: 'status', attrs: { role: 'status', 'aria-live': 'polite' } }),
    meter: h('p', { class: 'meter', attrs: { 'aria-live': 'off' } }),
  };
  const header = h('header', { class: 'top' }, h('a', { class: 'brand', attrs: { href: '?' } }, 'docdb viewer'));
  const footer = h('footer', { class: 'bottom' }, frame.status, frame.meter);
  doc.body.replaceChildren(header, frame.problems, frame.view, footer);
  return frame;
}

/**
 * Start the viewer in this page.
 *
 * @example
 * await startViewer(document, window);
 */
export async function startViewer(doc: Document, win: Window): Promise<void> {
  const apiUrl = readApiUrl(doc);
  const frame = buildFrame(doc);
  const stats: ViewerStats = { requests: 0 };
  (win as unknown as { docdbViewer: { stats(): ViewerStats } }).docdbViewer = { stats: () => ({ ...stats }) };
  const showMeter = () => {
    const rl = stats.rateLimit;
    frame.meter.textContent = `${stats.requests} request(s)${rl ? ` · ${rl.remaining} of ${rl.limit} left` : ''}`;
  };
  const countingFetch: typeof fetch = async (input, init) => {
    stats.requests++;
    const res = await win.fetch(input, init);
    const remaining = Number(res.headers.get('x-ratelimit-remaining'));
    if (res.headers.has('x-ratelimit-remaining') && Number.isFinite(remaining)) {
      stats.rateLimit = {
        limit: Number(res.headers.get('x-ratelimit-limit')),
        remaining,
        reset: Number(res.headers.get('x-ratelimit-reset')),
        used: Number(res.headers.get('x-ratelimit-used')),
        resource: res.headers.get('x-ratelimit-resource') ?? 'core',
      };
    }
    showMeter();
    return res;
  };
  const clients = new Map<string, Promise<DocDbClient>>();
  const clientFor = (repo: string, ref: string): Promise<DocDbClient> => {
    const key = `${repo}\n${ref}`;
    let client = clients.get(key);
    if (!client) {
      const [owner, name] = repo.split('/') as [string, string];
      client = loadDocDbClient({
        owner,
        repo: name,
        ref,
        apiUrl,
        hostCapabilities: {
          transport: { fetch: countingFetch },
          credentials: () => currentToken(),
          ...('indexedDB' in win ? { store: { name: 'docdb-viewer' } } : {}),
        },
      });
      clients.set(key, client);
    }
    return client;
  };
  let current: AbortController | undefined;
  const render = async (): Promise<void> => {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    doc.body.dataset.state = 'loading';
    const { state, problems } = parseViewState(win.location.search);
    clear(frame.problems);
    for (const p of problems) frame.problems.append(h('p', { dataset: { param: p.param } }, p.message));
    clear(frame.view);
    if (!state) {
      frame.view.append(openForm());
      doc.body.dataset.state = 'ready';
      return;
    }
    try {
      const client = await clientFor(state.repo, state.ref);
      const version = state.at ?? (await client.head());
      const ctx = viewContext(state, client, version);
      await VIEW_OF[state.view](frame.view, ctx);
      if (!controller.signal.aborted) doc.body.dataset.state = 'ready';
    } catch (error) {
      if (controller.signal.aborted) return;
      frame.view.append(
        h('p', { class: 'error', attrs: { role: 'alert' } }, explainError(error, { repository: state.repo, apiUrl })),
      );
      doc.body.dataset.state = 'error';
    }
  };
  const navigate = (state: ViewState, patch: Partial<ViewState>, options: { replace?: boolean } = {}) => {
    const url = `?${formatViewState({ ...state, ...patch })}`;
    if (options.replace) win.history.replaceState(null, '', url);
    else win.history.pushState(null, '', url);
    void render();
  };
  const budgetCheck = (requests: number, what: string): BudgetVerdict => {
    const remaining = stats.rateLimit?.remaining;
    if (remaining === undefined || requests <= remaining) return { ok: true, remaining };
    return {
      ok: false,
      remaining,
      message: `${what} needs about ${requests} requests and ${remaining} are left in this hour${currentToken() ? '' : ' (GitHub allows 60 an hour without a token)'}.`,
    };
  };
  const viewContext = (state: ViewState, client: DocDbClient, version: string | null): ViewContext => ({
    state,
    version,
    client,
    clientFor: (ref) => clientFor(state.repo, ref),
    navigate: (patch, options) => navigate(state, patch, options),
    link: (patch) => `?${formatViewState({ ...state, ...patch })}`,
    signal: (current as AbortController).signal,
    hasToken: () => currentToken() !== null,
    budget: { check: budgetCheck },
    commitUrl: (sha) => {
      const web = webOriginOf(apiUrl);
      return web ? `${web}/${state.repo}/commit/${sha}` : undefined;
    },
    status: (message) => {
      frame.status.textContent = message;
    },
  });
  win.addEventListener('popstate', () => void render());
  showMeter();
  await render();
}

/** The form shown without `repo`: open a repository's section. */
function openForm(): HTMLElement {
  return h(
    'form',
    { class: 'open card', attrs: { method: 'get', action: '' } },
    h('h1', { text: 'Open a docdb section' }),
    h('label', { attrs: { for: 'open-repo' } }, 'Repository'),
    h('input', {
      attrs: { id: 'open-repo', name: 'repo', placeholder: 'owner/name', required: true, spellcheck: 'false' },
    }),
    h('label', { attrs: { for: 'open-section' } }, 'Section'),
    h('input', { attrs: { id: 'open-section', name: 'section', placeholder: 'documents', spellcheck: 'false' } }),
    h('button', { attrs: { type: 'submit' } }, 'Open'),
  );
}
