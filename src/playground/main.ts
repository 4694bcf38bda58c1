/**
 * The playground page: enter a public `owner/name`, fetch its description and branch refs without a
 * token, and render the in-memory projection (spec §4: "the browser playground performs only the fetch,
 * and a simplified in-memory projection rendered in a panel, without persisting"). Every failure is
 * shown as a sentence (explainError). Requests used and the rate limit left are always visible.
 */
import { explainError } from '../browser/explain-error.js';
import { projectRepository, type RepoProjectionResult } from '../browser/repo-projection.js';
import type { RateLimit } from '../core/refstore.js';
import { parseRateLimit } from '../stores/remote-api/status.js';
import { fetchTransport } from '../transport/fetch.js';
import type { HttpTransport } from '../transport/types.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** What the footer shows: the last projection's requests, the session's total, the rate limit left. */
const totals: { last: number; requests: number; rateLimit?: RateLimit; source: string } = {
  last: 0,
  requests: 0,
  source: '',
};

let offlineWorld: Promise<{ fetch: typeof fetch; url: string }> | undefined;

/** The in-page emulator, loaded on first use (a separate chunk: the online page never downloads it). */
function offline() {
  offlineWorld ??= import('./offline-world.js').then((m) => ({
    fetch: m.createOfflineWorld().fetchFunction,
    url: m.OFFLINE_API_URL,
  }));
  return offlineWorld;
}

function counting(inner: HttpTransport): HttpTransport {
  return {
    async request(req) {
      totals.requests++;
      totals.last++;
      const res = await inner.request(req);
      totals.rateLimit = parseRateLimit(res.headers) ?? totals.rateLimit;
      return res;
    },
  };
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { dataset?: Record<string, string> } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { dataset, ...rest } = props;
  Object.assign(node, rest);
  if (dataset) Object.assign(node.dataset, dataset);
  node.append(...children);
  return node;
}

function renderMeta(): void {
  const meta = $('meta');
  const rl = totals.rateLimit;
  const parts: (Node | string)[] = [
    el(
      'span',
      { id: 'requests' },
      'Requests: ',
      el('b', {}, String(totals.last)),
      ' for this projection, ',
      el('b', {}, String(totals.requests)),
      ' in total',
    ),
  ];
  if (rl) {
    const reset = new Date(rl.reset * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    parts.push(
      el(
        'span',
        { id: 'ratelimit' },
        'Rate limit left: ',
        el('b', {}, `${rl.remaining} of ${rl.limit}`),
        ` (resets ${reset})`,
      ),
    );
  }
  if (totals.source) parts.push(el('span', {}, 'Source: ', el('b', {}, totals.source)));
  meta.replaceChildren(...parts);
}

function renderProjection(result: RepoProjectionResult): void {
  const { envelope } = result;
  const d = envelope.data;
  const rows = d.branches.map((b) =>
    el(
      'tr',
      { className: b.name === d.defaultBranch ? 'default' : '' },
      el('td', {}, b.name),
      el('td', { className: 'sha', title: b.sha }, b.sha.slice(0, 12)),
    ),
  );
  const panel = $('panel');
  panel.className = 'card panel';
  panel.dataset.state = 'ok';
  panel.replaceChildren(
    el('h2', { id: 'full-name' }, d.fullName),
    el('p', { className: 'desc' }, d.description ?? 'No description.'),
    el(
      'div',
      { className: 'badges' },
      el('span', { className: 'badge' }, 'default branch ', el('b', { id: 'default-branch' }, d.defaultBranch)),
      el(
        'span',
        { className: 'badge' },
        el('b', {}, String(d.branches.length)),
        d.branches.length === 1 ? ' branch' : ' branches',
      ),
      el(
        'span',
        { className: 'badge' },
        'document ',
        el('b', {}, `${envelope.namespace}/${envelope.type}/${envelope.id}`),
      ),
      el(
        'span',
        { className: 'badge', title: envelope.version },
        'version ',
        el('b', {}, envelope.version.slice(0, 12)),
      ),
    ),
    el(
      'table',
      { id: 'branches' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Branch'), el('th', {}, 'Tip commit'))),
      el('tbody', {}, ...rows),
    ),
    el(
      'details',
      {},
      el('summary', {}, 'Document envelope (JSON)'),
      el('pre', { id: 'envelope' }, JSON.stringify(envelope, null, 2)),
    ),
  );
}

function renderError(message: string): void {
  const panel = $('panel');
  panel.className = 'card panel error';
  panel.dataset.state = 'error';
  panel.replaceChildren(el('h2', {}, 'Could not project this repository'), el('p', { id: 'error-message' }, message));
}

async function project(event?: Event): Promise<void> {
  event?.preventDefault();
  const repository = $<HTMLInputElement>('repository').value.trim();
  const useOffline = $<HTMLInputElement>('offline').checked;
  const button = $<HTMLButtonElement>('go');
  const panel = $('panel');
  button.disabled = true;
  panel.dataset.state = 'loading';
  panel.className = 'card panel';
  panel.replaceChildren(el('p', { className: 'hint' }, `Fetching ${repository}…`));
  totals.last = 0;
  let apiUrl = $<HTMLInputElement>('api').value.trim();
  try {
    let transport: HttpTransport;
    if (useOffline) {
      const world = await offline();
      apiUrl = world.url;
      transport = fetchTransport({ fetch: world.fetch });
      totals.source = 'emulator in this page';
    } else {
      transport = fetchTransport({ timeoutMs: 15_000 });
      totals.source = apiUrl;
    }
    renderProjection(await projectRepository({ transport: counting(transport), repository, apiUrl }));
  } catch (e) {
    renderError(explainError(e, { repository, apiUrl }));
  } finally {
    button.disabled = false;
    renderMeta();
  }
}

function init(): void {
  const params = new URLSearchParams(location.search);
  const api = params.get('api');
  const repo = params.get('repo');
  if (api) $<HTMLInputElement>('api').value = api;
  if (repo) $<HTMLInputElement>('repository').value = repo;
  if (params.has('offline')) $<HTMLInputElement>('offline').checked = true;
  $<HTMLInputElement>('offline').addEventListener('change', (e) => {
    $<HTMLInputElement>('api').disabled = (e.target as HTMLInputElement).checked;
  });
  $<HTMLInputElement>('api').disabled = $<HTMLInputElement>('offline').checked;
  $('form').addEventListener('submit', project);
  $('panel').dataset.state = 'idle';
  renderMeta();
  if (params.has('go')) void project();
}

init();
