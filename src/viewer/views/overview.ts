/**
 * The overview (issue 29 item 2): namespaces and types with document counts, the commit read and its
 * time, recent commits (each a link to that version and to its changes). Cost: the frame's head, one
 * page of commits (`ctx.recentCommits()`) and ONE listing at `ctx.version` — the listing after the
 * commits, whose cached trees let it go straight to `GET /git/trees/<tree>?recursive=1`. Where types
 * declare search, the section's search box (search/section-search.ts), and with `q` its results.
 */

import { explainError, type HistoryEntry, parseKey } from '../../browser/index.js';
import type { View, ViewContext } from '../context.js';
import { formatLocal } from '../dates.js';
import { h, safeHref } from '../dom.js';
import { sectionSearch } from '../search/section-search.js';

/** One document type of the section and what the listing says of it. */
export interface TypeSummary {
  ns: string;
  type: string;
  count: number;
  /** An index of the type exists (`_docdb/index/<ns>/<type>/manifest.json`, docs/indexes.md). */
  indexed: boolean;
  /** The type declares search: its search index exists (`_docdb/search/<ns>/<type>/manifest.json`, docs/search.md). */
  searchable: boolean;
}

/**
 * Document counts per type from a listing's keys (`<ns>/<type>/<id>.json`; other keys are not documents).
 *
 * @example
 * summarize(['github/repo/a.json', '_docdb/index/github/repo/manifest.json']) // [{ ns: 'github', type: 'repo', count: 1, indexed: true, searchable: false }]
 */
export function summarize(keys: Iterable<string>): { types: TypeSummary[]; otherFiles: number } {
  const byType = new Map<string, TypeSummary>();
  const indexed = new Set<string>();
  const searchable = new Set<string>();
  let otherFiles = 0;
  for (const key of keys) {
    const m = /^_docdb\/(index|search)\/([^/]+)\/([^/]+)\/manifest\.json$/.exec(key);
    if (m) (m[1] === 'index' ? indexed : searchable).add(`${m[2]}/${m[3]}`);
    const id = parseKey(key);
    if (!id) {
      if (!key.startsWith('_docdb/')) otherFiles++;
      continue;
    }
    const k = `${id.namespace}/${id.doc_type}`;
    const t = byType.get(k) ?? { ns: id.namespace, type: id.doc_type, count: 0, indexed: false, searchable: false };
    t.count++;
    byType.set(k, t);
  }
  const types = [...byType.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, t]) => ({ ...t, indexed: indexed.has(k), searchable: searchable.has(k) }));
  return { types, otherFiles };
}

export const overviewView: View = async (root, ctx) => {
  const { state } = ctx;
  const name = state.ref.startsWith('refs/docdb/') ? `Section “${state.ref.slice(11)}”` : state.ref;
  root.append(h('h1', { class: 'view-title', text: name }));
  // An anonymous visitor near the end of the hour is told before the page spends the rest.
  const verdict = ctx.budget.check(OVERVIEW_REQUESTS, 'The overview');
  if (verdict.ok) return drawOverview(root, ctx, ctx.version);
  const version = ctx.version;
  const warning = ctx.budget.warning(verdict, [
    {
      label: 'Open anyway',
      run: () => {
        warning.remove();
        drawOverview(root, ctx, version).catch((error) =>
          root.append(ctx.budget.stopped(error) ?? notice(explainError(error, { repository: ctx.state.repo }))),
        );
      },
    },
  ]);
  root.append(warning);
};

/** What the overview reads after the frame's head: one page of commits and one listing. */
export const OVERVIEW_REQUESTS = 2;

async function drawOverview(root: HTMLElement, ctx: ViewContext, version: string): Promise<void> {
  // Commits first: they fill the commit cache the listing then uses (one request for the listing).
  const commits = await ctx.recentCommits();
  const listed = await ctx.client.refStore.list({ version });
  if (ctx.signal.aborted) return;
  root.append(
    versionLine(
      ctx,
      commits.find((c) => c.version === version),
      version,
    ),
  );
  const { types, otherFiles } = summarize(listed.entries.map((e) => e.key));
  await sectionSearch(root, ctx, types);
  if (ctx.signal.aborted) return;
  if (types.length === 0) root.append(notice(noDocuments(ctx, otherFiles)));
  else root.append(typesTable(ctx, types));
  root.append(recentCommitsList(ctx, commits));
}

function notice(text: string): HTMLElement {
  return h('p', { class: 'notice', attrs: { role: 'status' }, text });
}

/** The sentence for a tree without documents: an empty section, or a ref that is not a section at all. */
function noDocuments(ctx: ViewContext, otherFiles: number): string {
  const { ref, repo } = ctx.state;
  const at = (ctx.version as string).slice(0, 7);
  if (ref.startsWith('refs/docdb/')) {
    return `This section holds no documents at ${at}: its tree has no <namespace>/<type>/<id>.json file.`;
  }
  return `${ref} is not a docdb section: at ${at} its tree holds no <namespace>/<type>/<id>.json document${otherFiles ? ` (${otherFiles} other file(s))` : ''}. To list its data files, add view=file to the URL (?repo=${repo}&ref=${ref}&view=file); to open one, path= (for example ?repo=${repo}&ref=${ref}&path=data/x.json).`;
}

function versionLine(ctx: ViewContext, commit: HistoryEntry | undefined, version: string): HTMLElement {
  const label = ctx.state.at ? 'Version' : 'Tip commit';
  const when = commit
    ? h('time', { attrs: { datetime: commit.committer.date }, text: formatDate(commit.committer.date) })
    : null;
  return h(
    'p',
    { class: 'version-line' },
    `${label} `,
    commitLink(ctx, version),
    commit ? ` — ${firstLine(commit.message)} — ` : '',
    when,
  );
}

function typesTable(ctx: ViewContext, types: readonly TypeSummary[]): HTMLElement {
  const total = types.reduce((n, t) => n + t.count, 0);
  const row = (t: TypeSummary) =>
    h(
      'tr',
      null,
      h('td', { text: t.ns }),
      h('td', null, h('a', { attrs: { href: ctx.link(typeLink(t, 'table')) }, text: t.type })),
      h('td', { class: 'num', text: t.count.toLocaleString('en') }),
      h('td', { text: indexCell(t) }),
      h(
        'td',
        null,
        h('a', {
          attrs: { href: ctx.link(typeLink(t, 'chart')), 'aria-label': `Chart of ${t.ns}/${t.type}` },
          text: 'chart',
        }),
      ),
    );
  return h(
    'section',
    { attrs: { 'aria-labelledby': 'ov-types' } },
    h('h2', { attrs: { id: 'ov-types' }, text: `Types (${total.toLocaleString('en')} documents)` }),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'types' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ...['Namespace', 'Type', 'Documents', 'Index', 'Chart'].map((c) =>
              h('th', { attrs: { scope: 'col' }, text: c }),
            ),
          ),
        ),
        h('tbody', null, ...types.map(row)),
      ),
    ),
  );
}

/** The index column: an index (sorting, filters) and search, each when the type has it. */
function indexCell(t: TypeSummary): string {
  const kinds = [t.indexed ? 'indexed' : '', t.searchable ? 'search' : ''].filter(Boolean);
  return kinds.length ? kinds.join(', ') : '—';
}

function typeLink(t: TypeSummary, view: 'table' | 'chart') {
  return {
    view,
    ns: t.ns,
    type: t.type,
    id: undefined,
    q: undefined,
    where: [],
    sort: undefined,
    field: undefined,
    agg: undefined,
    from: undefined,
    to: undefined,
  };
}

function recentCommitsList(ctx: ViewContext, commits: readonly HistoryEntry[]): HTMLElement {
  const item = (c: HistoryEntry) => {
    const parent = c.parents[0];
    const web = ctx.commitUrl(c.version);
    const webHref = web ? safeHref(web) : undefined;
    return h(
      'li',
      null,
      h('a', { attrs: { href: ctx.link({ view: 'overview', at: c.version }) }, text: c.version.slice(0, 7) }),
      ` ${firstLine(c.message)} · `,
      h('time', { attrs: { datetime: c.committer.date }, text: formatDate(c.committer.date) }),
      parent ? ' · ' : '',
      parent
        ? h('a', {
            attrs: { href: ctx.link({ view: 'diff', from: parent, to: c.version, at: undefined }) },
            text: 'changes',
          })
        : null,
      webHref ? ' · ' : '',
      webHref ? h('a', { attrs: { href: webHref, rel: 'noopener noreferrer' }, text: 'on GitHub' }) : null,
    );
  };
  return h(
    'section',
    { attrs: { 'aria-labelledby': 'ov-commits' } },
    h('h2', { attrs: { id: 'ov-commits' }, text: 'Recent commits' }),
    commits.length ? h('ol', { class: 'commits' }, ...commits.map(item)) : h('p', { text: 'No commits to show.' }),
  );
}

function commitLink(ctx: ViewContext, sha: string): HTMLElement {
  return h('a', { attrs: { href: ctx.link({ view: 'overview', at: sha }) } }, h('code', { text: sha.slice(0, 7) }));
}

function firstLine(message: string): string {
  const line = message.split('\n', 1)[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** An ISO date in the viewer's one format (src/viewer/dates.ts). */
export function formatDate(iso: string): string {
  return formatLocal(iso);
}
