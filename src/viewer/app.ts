/**
 * The page frame: reads the state from the URL, keeps one client per (repository, ref), draws the view
 * the state names into `#view`, shows problems and errors as sentences, keeps the request count and the
 * rate limit in view, holds the token panel, and follows the section while a view shows its tip.
 * Views change the page only through `ctx.navigate` or `?…` links (history entries; back/forward work).
 */

import type { DocDbClient } from '../browser/index.js';
import { readApiUrl, readWatchInterval, webOriginOf } from './config.js';
import type { ViewContext } from './context.js';
import { formatLocal } from './dates.js';
import { clear, h } from './dom.js';
import { budgetWarning, limitNotice } from './frame/budget-warning.js';
import { type ClientPool, clientPool } from './frame/clients.js';
import { explainFailure } from './frame/explain.js';
import { locationParts, missingRefParts } from './frame/header.js';
import { followSection } from './frame/live.js';
import { countingFetch, type ViewerStats } from './frame/network.js';
import { checkBudget, limitStop, meterText } from './frame/rate-limit.js';
import { type TokenPanel, tokenPanel } from './frame/token-panel.js';
import { formatViewState, parseViewState, type StateProblem, type ViewState } from './state.js';
import { currentToken } from './token.js';
import { VIEW_OF } from './views/index.js';

export type { ViewerStats } from './frame/network.js';

interface Frame {
  location: HTMLElement;
  live: HTMLElement;
  problems: HTMLElement;
  view: HTMLElement;
  status: HTMLElement;
  meter: HTMLElement;
}

function buildFrame(doc: Document, token: HTMLElement): Frame {
  const frame: Frame = {
    location: h('div', { class: 'location' }),
    live: h('div', { class: 'live', attrs: { role: 'status', 'aria-live': 'polite', hidden: true } }),
    problems: h('div', { class: 'problems', attrs: { role: 'alert' } }),
    view: h('main', { class: 'view', attrs: { id: 'view', tabindex: -1 } }),
    status: h('p', { class: 'status', attrs: { role: 'status', 'aria-live': 'polite' } }),
    // Focusable: at phone width the footer shows one line, and the meter's whole text while focused (a tap).
    meter: h('p', { class: 'meter', attrs: { 'aria-live': 'off', tabindex: 0 } }),
  };
  const header = h(
    'header',
    { class: 'top' },
    h('div', { class: 'bar' }, h('a', { class: 'brand', attrs: { href: '?' } }, 'docdb viewer'), token),
    frame.location,
  );
  const footer = h('footer', { class: 'bottom' }, frame.status, frame.meter);
  doc.body.replaceChildren(header, frame.live, frame.problems, frame.view, footer);
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
  // Read once now: a bad meta tag fails the page at once, not at the first live update.
  readWatchInterval(doc, { hasToken: false });
  const tips = tipMemo();
  const panel = tokenPanel(() => {
    tips.forget();
    void render(false);
  });
  const frame = buildFrame(doc, panel.element);
  const showMeter = () => showRateLimit(frame.meter, net.stats);
  const net = countingFetch(win, showMeter);
  const stats = net.stats;
  const page = { live: 'off' as string };
  (win as unknown as { docdbViewer: { stats(): ViewerStats & { live: string } } }).docdbViewer = {
    stats: () => ({ ...stats, rateLimits: { ...stats.rateLimits }, live: page.live }),
  };
  const pool = clientPool({ apiUrl, fetch: net.fetch, indexedDB: 'indexedDB' in win });
  let current: AbortController | undefined;
  const render = async (focus: boolean): Promise<void> => {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    doc.body.dataset.state = 'loading';
    const { state, problems } = parseViewState(win.location.search);
    resetFrame(frame, problems);
    page.live = 'off';
    showMeter();
    if (!state) {
      frame.view.append(openForm());
      doc.body.dataset.state = 'ready';
      return;
    }
    try {
      const client = await pool.clientFor(state.repo, state.ref, {
        quarantine: state.quarantine,
        preview: state.preview,
      });
      const version = state.at ?? (await tips.read(state, client));
      if (controller.signal.aborted) return;
      if (version === null) return showMissingRef(doc, frame, state);
      const ctx = viewContext(state, client, version, controller.signal);
      frame.location.append(...locationParts(ctx));
      await VIEW_OF[state.view](frame.view, ctx);
      if (controller.signal.aborted) return;
      doc.body.dataset.state = 'ready';
      // A view that put the focus somewhere itself (the table's text filter after Enter) keeps it there.
      if (focus && !frame.view.contains(doc.activeElement)) focusHeading(frame.view);
      if (!state.at && state.view !== 'file') startLive(client, version, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      clear(frame.view);
      frame.view.append(
        stoppedBy(error, stats, panel) ??
          h(
            'p',
            { class: 'error', attrs: { role: 'alert' } },
            explainFailure(error, { state, apiUrl, hasToken: currentToken() !== null }),
          ),
      );
      doc.body.dataset.state = 'error';
    }
  };
  const startLive = (client: DocDbClient, since: string, signal: AbortSignal) =>
    void followSection({
      client,
      since,
      interval: readWatchInterval(doc, { hasToken: currentToken() !== null }),
      signal,
      visibility: doc,
      banner: frame.live,
      update: () => {
        tips.forget();
        navigate(parseViewState(win.location.search).state as ViewState, {}, { replace: true });
      },
      problem: (message) => {
        frame.status.textContent = message;
      },
      onState: (s) => {
        if (current?.signal === signal) page.live = s;
      },
    });
  const go = (url: string, replace: boolean) => {
    if (replace) win.history.replaceState(null, '', url);
    else win.history.pushState(null, '', url);
    void render(true);
  };
  const navigate = (state: ViewState, patch: Partial<ViewState>, options: { replace?: boolean } = {}) =>
    go(`?${formatViewState({ ...state, ...patch })}`, options.replace === true);
  const viewContext = (state: ViewState, client: DocDbClient, version: string, signal: AbortSignal) =>
    contextFor({ state, client, version, signal, pool, apiUrl, stats, panel, frame, navigate });
  interceptLinks(doc, (href) => go(href, false));
  win.addEventListener('popstate', () => void render(true));
  await render(false);
}

/** What `contextFor` builds a view's context from. */
interface ContextParts {
  state: ViewState;
  client: DocDbClient;
  version: string;
  signal: AbortSignal;
  pool: ClientPool;
  apiUrl: string;
  stats: ViewerStats;
  panel: TokenPanel;
  frame: Frame;
  navigate(state: ViewState, patch: Partial<ViewState>, options?: { replace?: boolean }): void;
}

function contextFor(p: ContextParts): ViewContext {
  const { state, client, version, signal, pool, apiUrl, stats, panel, frame } = p;
  return {
    state,
    version,
    client,
    clientFor: (ref) => pool.clientFor(state.repo, ref),
    navigate: (patch, options) => p.navigate(state, patch, options),
    link: (patch) => `?${formatViewState({ ...state, ...patch })}`,
    signal,
    hasToken: () => currentToken() !== null,
    budget: {
      check: (requests, what) =>
        checkBudget({
          requests,
          what,
          rateLimit: stats.rateLimit,
          hasToken: currentToken() !== null,
          nowMs: Date.now(),
        }),
      warning: (verdict, choices = []) => budgetWarning(verdict, choices, () => panel.open()),
      stopped: (error) => stoppedBy(error, stats, panel),
    },
    commitUrl: (sha) => {
      const web = webOriginOf(apiUrl);
      return web ? `${web}/${state.repo}/commit/${sha}` : undefined;
    },
    recentCommits: () => pool.recentCommits(state.repo, state.ref, version, client),
    status: (message) => {
      frame.status.textContent = message;
    },
  };
}

/**
 * The viewer's own `?…` links move within the page (a history entry, no reload); a modified click
 * (new tab, new window) is left to the browser.
 */
function interceptLinks(doc: Document, go: (href: string) => void): void {
  doc.addEventListener('click', (event) => {
    const a = (event.target as Element | null)?.closest?.('a');
    const href = a?.getAttribute('href');
    if (!a || !href?.startsWith('?') || href === '?' || a.target || event.defaultPrevented) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go(href);
  });
}

/** Reset times in the viewer's one date format (src/viewer/dates.ts). */
const localTime = (s: number) => formatLocal(s * 1000);

/** The notice for a read a rate limit stopped (which limit, when, "Add a token"), or undefined for other errors. */
function stoppedBy(error: unknown, stats: ViewerStats, panel: TokenPanel): HTMLElement | undefined {
  const stop = limitStop(error, { rateLimit: stats.rateLimit, hasToken: currentToken() !== null, time: localTime });
  return stop && limitNotice(stop, () => panel.open());
}

/** The footer's meter: requests made, and the rate limit left with its reset time. */
function showRateLimit(meter: HTMLElement, stats: ViewerStats): void {
  meter.textContent = meterText({
    requests: stats.requests,
    rateLimit: stats.rateLimit,
    hasToken: currentToken() !== null,
    time: localTime,
  });
}

/** A ref that does not exist, whatever view the URL names: one sentence, said once for every view. */
function showMissingRef(doc: Document, frame: Frame, state: ViewState): void {
  doc.body.dataset.state = 'ready';
  frame.location.append(...missingRefParts(state));
  frame.view.append(
    h('h1', { class: 'view-title', text: state.ref }),
    h('p', {
      class: 'notice',
      attrs: { role: 'status' },
      text: `${state.ref} does not exist in ${state.repo}: there is no such ref (check the section name or the ref).`,
    }),
  );
}

/** Empty the frame for the next view, with the URL's problems said. */
function resetFrame(frame: Frame, problems: readonly StateProblem[]): void {
  clear(frame.problems);
  for (const p of problems) frame.problems.append(h('p', { dataset: { param: p.param } }, p.message));
  for (const part of [frame.view, frame.location, frame.live]) clear(part);
  frame.live.hidden = true;
  frame.status.textContent = '';
}

/**
 * The tip each (repository, ref) was read at, kept while the visitor moves between views: the views of one
 * visit agree on one version, and a link within the page costs no ref read. The section moving meanwhile is
 * what the live banner says; its Update (and a new token, and a reload) reads the tip again.
 */
function tipMemo() {
  const tips = new Map<string, string>();
  return {
    async read(state: ViewState, client: DocDbClient): Promise<string | null> {
      const key = `${state.repo}\n${state.ref}\n${state.quarantine ?? ''}\n${state.preview ?? ''}`;
      const known = tips.get(key);
      if (known !== undefined) return known;
      const tip = await client.head();
      if (tip !== null) tips.set(key, tip);
      return tip;
    },
    forget: () => tips.clear(),
  };
}

/** After navigation, keyboard and screen-reader users land on the new view's heading. */
function focusHeading(view: HTMLElement): void {
  const heading = view.querySelector<HTMLElement>('h1, h2') ?? view;
  if (heading !== view) heading.tabIndex = -1;
  heading.focus({ preventScroll: false });
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
