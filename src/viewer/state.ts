/**
 * The viewer's state, all of it in the URL (issue 29 item 9: every view is a link; back/forward work).
 * `parseViewState` never throws: a malformed parameter becomes a `problems` entry the page shows, naming
 * the parameter and what is allowed, and the rest of the URL still opens.
 *
 * Parameters (the contract every view navigates with):
 * | param | meaning |
 * |---|---|
 * | `repo` | `owner/name` (required) |
 * | `section` | section name → ref `refs/docdb/<section>` (default `documents`) |
 * | `ref` | a full ref instead of `section` (`refs/heads/main` with `path` opens a data file) |
 * | `at` | a commit SHA: read the section (or the document) at this version instead of the tip |
 * | `view` | `overview` (default) · `table` · `document` · `diff` · `chart` · `file` |
 * | `ns`, `type` | a document type (table, chart, document) |
 * | `id` | a document id (document view, document chart) |
 * | `path` | a file path on `ref` (file view: `.json`, `.jsonl`, `.csv`; without it, `view=file` lists them) |
 * | `q` | words searched (overview: every type that declares search; a table: its type) — else the table's text filter |
 * | `where` | repeated: one clause each, in the CLI's text form (`data.stars>=10`, docs/indexes.md) |
 * | `sort` | a field, `-` in front for descending |
 * | `from`, `to` | two versions compared (document diff, section diff); `from` alone on a table: mark what changed since |
 * | `field` | the charted field (`data.stars`) |
 * | `agg` | type chart: `count` · `sum` · `mean` · `min` · `max` |
 */
import { isPullRequestNumber, reservedSpaceProblem } from '../browser/index.js';

export const VIEWS = ['overview', 'table', 'document', 'diff', 'chart', 'file'] as const;
export type ViewName = (typeof VIEWS)[number];
export const AGGREGATES = ['count', 'sum', 'mean', 'min', 'max'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

/** The default root of section refs (`refs/docdb/<section>`). */
export const DEFAULT_SECTION = 'documents';

export interface ViewState {
  repo: string;
  /** Full ref name (from `ref`, or `refs/docdb/<section>`). */
  ref: string;
  /**
   * `quarantine=<id>`: read the section's quarantined run `<ref>.quarantine/<id>` (docs/quarantine.md)
   * instead of the section — only when asked by name like this.
   */
  quarantine?: string;
  /**
   * `preview=<N>`: read pull request N's review preview `<ref>.previews/pr-<N>` (the would-be commit `mode:
   * review` wrote on the section's tip) instead of the section — only when asked by name like this.
   */
  preview?: number;
  view: ViewName;
  at?: string;
  ns?: string;
  type?: string;
  id?: string;
  path?: string;
  q?: string;
  where: string[];
  sort?: string;
  from?: string;
  to?: string;
  field?: string;
  agg?: Aggregate;
}

/** A parameter that did not read, said as the page shows it. */
export interface StateProblem {
  param: string;
  message: string;
}

const SHA = /^[0-9a-f]{40}$/;
const REPO = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
const QUARANTINE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;
const SECTION = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

function one(params: URLSearchParams, name: string): string | undefined {
  const v = params.get(name);
  return v === null || v === '' ? undefined : v;
}

/**
 * Read the state from a query string. `repo` missing gives `state: null` (the page shows the open form).
 *
 * @example
 * const { state, problems } = parseViewState('?repo=octo/data&view=table&ns=github&type=repo&sort=-data.stars');
 */
export function parseViewState(search: string): { state: ViewState | null; problems: StateProblem[] } {
  const params = new URLSearchParams(search);
  const problems: StateProblem[] = [];
  const bad = (param: string, message: string) => problems.push({ param, message });
  const repo = one(params, 'repo');
  if (repo === undefined) return { state: null, problems };
  if (!REPO.test(repo)) {
    bad('repo', `"repo" must be owner/name (letters, digits, "-", "." and "_"), got ${JSON.stringify(repo)}`);
    return { state: null, problems };
  }
  const state: ViewState = { repo, ref: `refs/docdb/${DEFAULT_SECTION}`, view: 'overview', where: [] };
  readRef(params, state, bad);
  const quarantine = one(params, 'quarantine');
  if (quarantine !== undefined) {
    if (QUARANTINE_ID.test(quarantine) && quarantine.length <= 64 && !quarantine.endsWith('.lock'))
      state.quarantine = quarantine;
    else bad('quarantine', `"quarantine" must be a quarantine id such as 4711.1, got ${JSON.stringify(quarantine)}`);
  }
  readPreview(params, state, bad);
  readView(params, state, bad);
  for (const name of ['at', 'from', 'to'] as const) {
    const v = one(params, name);
    if (v === undefined) continue;
    if (SHA.test(v)) state[name] = v;
    else bad(name, `"${name}" must be a 40-character commit SHA, got ${JSON.stringify(v)}`);
  }
  for (const name of ['ns', 'type', 'id', 'path', 'q', 'sort', 'field'] as const) {
    const v = one(params, name);
    if (v !== undefined) state[name] = v;
  }
  readNames(state, bad);
  state.where = params.getAll('where').filter((w) => w.trim() !== '');
  const agg = one(params, 'agg');
  if (agg !== undefined) {
    if ((AGGREGATES as readonly string[]).includes(agg)) state.agg = agg as Aggregate;
    else bad('agg', `"agg" must be one of ${AGGREGATES.join(', ')}, got ${JSON.stringify(agg)}`);
  }
  // A file view implied by a path alone (no `view`) whose path was refused opens the overview, as before
  // `view=file` without a path became the list of data files.
  if (state.view === 'file' && state.path === undefined && one(params, 'view') === undefined) state.view = 'overview';
  requireParams(state, problems, bad);
  return { state, problems };
}

/** A namespace or type is one path segment; a file path is relative and never climbs out (`..`). */
const SEGMENT = /^[A-Za-z0-9._~-]{1,100}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

function readNames(state: ViewState, bad: (p: string, m: string) => void): void {
  for (const name of ['ns', 'type'] as const) {
    const v = state[name];
    if (v === undefined || (SEGMENT.test(v) && v !== '.' && v !== '..')) continue;
    bad(name, `"${name}" must be one name (letters, digits, ".", "_", "-", "~"; no "/"), got ${JSON.stringify(v)}`);
    delete state[name];
  }
  const path = state.path;
  if (
    path !== undefined &&
    (path.startsWith('/') || CONTROL.test(path) || path.split('/').some((s) => s === '..' || s === ''))
  ) {
    bad(
      'path',
      `"path" must be a file path in the repository such as data/x.json (no leading "/", no ".."), got ${JSON.stringify(path)}`,
    );
    delete state.path;
  }
}

/** What each view cannot open without: say so and open the overview instead (the page never opens blank). */
const REQUIRED: Partial<Record<ViewName, readonly (keyof ViewState)[]>> = {
  table: ['ns', 'type'],
  chart: ['ns', 'type'],
  document: ['ns', 'type', 'id'],
};

function requireParams(state: ViewState, problems: readonly StateProblem[], bad: (p: string, m: string) => void): void {
  const view = state.view;
  const missing = (REQUIRED[view] ?? []).filter((name) => state[name] === undefined);
  if (missing.length === 0) return;
  state.view = 'overview';
  // A parameter already named as malformed is not said twice.
  const unsaid = missing.filter((name) => !problems.some((p) => p.param === name));
  if (unsaid.length === 0) return;
  bad(
    unsaid[0] as string,
    `view=${view} needs ${unsaid.map((m) => `"${m}"`).join(' and ')}; showing the overview instead`,
  );
}

function readRef(params: URLSearchParams, state: ViewState, bad: (p: string, m: string) => void): void {
  const ref = one(params, 'ref');
  const section = one(params, 'section');
  // A section's reserved spaces (`.shards/`, …) hold refs docdb writes for it, never a section to open.
  const reserved = reservedSpaceProblem(ref ?? section ?? '');
  if (reserved) bad(ref !== undefined ? 'ref' : 'section', `"${ref !== undefined ? 'ref' : 'section'}" ${reserved}`);
  else if (ref !== undefined) {
    if (/^refs\/[A-Za-z0-9._/-]+$/.test(ref) && !ref.includes('..') && !ref.endsWith('/')) state.ref = ref;
    else bad('ref', `"ref" must be a full ref name such as refs/docdb/documents, got ${JSON.stringify(ref)}`);
  } else if (section !== undefined) {
    if (SECTION.test(section)) state.ref = `refs/docdb/${section}`;
    else bad('section', `"section" must be a section name such as documents, got ${JSON.stringify(section)}`);
  }
}

function readView(params: URLSearchParams, state: ViewState, bad: (p: string, m: string) => void): void {
  const view = one(params, 'view');
  if (view === undefined) {
    if (one(params, 'path') !== undefined) state.view = 'file';
    return;
  }
  if ((VIEWS as readonly string[]).includes(view)) state.view = view as ViewName;
  else bad('view', `"view" must be one of ${VIEWS.join(', ')}, got ${JSON.stringify(view)}`);
}

/**
 * The query string of a state (the inverse of parseViewState; default values are left out).
 *
 * @example
 * history.pushState(null, '', `?${formatViewState(state)}`);
 */
export function formatViewState(state: ViewState): string {
  const params = new URLSearchParams();
  params.set('repo', state.repo);
  const section = state.ref.startsWith('refs/docdb/') ? state.ref.slice('refs/docdb/'.length) : undefined;
  if (section === undefined) params.set('ref', state.ref);
  else if (section !== DEFAULT_SECTION) params.set('section', section);
  if (state.quarantine !== undefined) params.set('quarantine', state.quarantine);
  if (state.preview !== undefined) params.set('preview', String(state.preview));
  if (state.view !== 'overview' && !(state.view === 'file' && state.path !== undefined)) params.set('view', state.view);
  for (const name of ['at', 'ns', 'type', 'id', 'path', 'q', 'sort', 'from', 'to', 'field', 'agg'] as const) {
    const v = state[name];
    if (v !== undefined) params.set(name, v);
  }
  for (const w of state.where) params.append('where', w);
  return params.toString();
}

/** `preview=<N>`: a pull request number (1 to 2^31 - 1, GitHub's ids), and never with `quarantine=`. */
function readPreview(params: URLSearchParams, state: ViewState, bad: (field: string, message: string) => void): void {
  const preview = one(params, 'preview');
  if (preview === undefined) return;
  const n = /^[1-9][0-9]{0,9}$/.test(preview) ? Number(preview) : Number.NaN;
  if (!isPullRequestNumber(n)) {
    bad('preview', `"preview" must be a pull request number such as 42, got ${JSON.stringify(preview)}`);
  } else if (state.quarantine !== undefined) {
    bad('preview', '"preview" and "quarantine" each open a ref beside the section: give one of them');
  } else state.preview = n;
}
