/**
 * The location bar under the page title: the repository, the section (or ref and file), the version
 * read — the tip, or a pinned `at` with "back to the tip" — a picker over recent commits (read only when
 * opened), and the navigation: Overview, and the current type's table and chart.
 */
import type { ViewContext } from '../context.js';
import { h } from '../dom.js';
import type { ViewState } from '../state.js';

/** Every state field a view adds; cleared when navigating to another view. */
const VIEW_FIELDS: Partial<ViewState> = {
  ns: undefined,
  type: undefined,
  id: undefined,
  q: undefined,
  where: [],
  sort: undefined,
  from: undefined,
  to: undefined,
  field: undefined,
  agg: undefined,
};

/**
 * The location bar of a view.
 *
 * @example
 * locationBar.replaceChildren(...locationParts(ctx));
 */
export function locationParts(ctx: ViewContext): HTMLElement[] {
  const here = where(ctx.state);
  return ctx.state.view === 'file' ? [here, versionPart(ctx)] : [here, versionPart(ctx), nav(ctx)];
}

/**
 * The location bar of a ref that does not exist: where, and that there is no such ref.
 *
 * @example
 * locationBar.replaceChildren(...missingRefParts(state));
 */
export function missingRefParts(state: ViewState): HTMLElement[] {
  return [where(state), h('div', { class: 'version' }, h('span', { text: 'no such ref' }))];
}

function where(state: ViewState): HTMLElement {
  const name = state.ref.startsWith('refs/docdb/') ? `section ${state.ref.slice(11)}` : state.ref;
  // A quarantined run or a review preview is said as such: it is not the section (docs/quarantine.md).
  const section =
    state.quarantine !== undefined
      ? `${name} · quarantine ${state.quarantine} (not the section)`
      : state.preview !== undefined
        ? `${name} · preview of pull request #${state.preview} (not the section)`
        : name;
  return h(
    'p',
    { class: 'where' },
    h('span', { class: 'repo', text: state.repo }),
    ' · ',
    h('span', { class: 'ref', text: section }),
    state.path ? ' · ' : '',
    state.path ? h('span', { class: 'path', text: state.path }) : null,
  );
}

function versionPart(ctx: ViewContext): HTMLElement {
  const { state, version } = ctx;
  const box = h('div', { class: 'version' });
  const sha = h('code', { text: version.slice(0, 7), attrs: { title: version } });
  if (state.at) {
    box.append(
      h('span', { class: 'pinned' }, 'Version ', sha, ' (pinned)'),
      ' ',
      h('a', { class: 'to-tip', attrs: { href: ctx.link({ at: undefined }) }, text: 'back to the tip' }),
    );
  } else box.append(h('span', null, 'Tip ', sha));
  box.append(picker(ctx));
  return box;
}

/** Recent commits as links to `at=`; read when first opened (no request until the visitor asks). */
function picker(ctx: ViewContext): HTMLElement {
  const list = h('ol', { class: 'picker-list' });
  const details = h('details', { class: 'picker' }, h('summary', null, 'Pick a version'), list);
  let loaded = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || loaded) return;
    loaded = true;
    list.append(h('li', { text: 'Reading recent commits…' }));
    try {
      const commits = await ctx.recentCommits();
      list.replaceChildren(
        ...commits.map((c) =>
          h(
            'li',
            null,
            h(
              'a',
              {
                attrs: {
                  href: ctx.link({ at: c.version }),
                  'aria-current': c.version === ctx.version ? 'true' : undefined,
                },
              },
              h('code', { text: c.version.slice(0, 7) }),
            ),
            ` ${(c.message.split('\n', 1)[0] ?? '').slice(0, 80)}`,
          ),
        ),
      );
      if (commits.length === 0) list.replaceChildren(h('li', { text: 'No commits to show.' }));
    } catch (error) {
      loaded = false;
      list.replaceChildren(
        h('li', { class: 'error', text: `Could not read the commits: ${(error as Error).message}` }),
      );
    }
  });
  return details;
}

function nav(ctx: ViewContext): HTMLElement {
  const { state } = ctx;
  const item = (label: string, patch: Partial<ViewState>, current: boolean) =>
    h(
      'li',
      null,
      h('a', {
        attrs: {
          href: ctx.link({ ...VIEW_FIELDS, path: undefined, ...patch }),
          'aria-current': current ? 'page' : undefined,
        },
        text: label,
      }),
    );
  const items = [item('Overview', { view: 'overview' }, state.view === 'overview')];
  if (state.ns && state.type) {
    const t = { ns: state.ns, type: state.type };
    items.push(item(`${state.type} table`, { view: 'table', ...t }, state.view === 'table'));
    items.push(item(`${state.type} chart`, { view: 'chart', ...t, field: state.field }, state.view === 'chart'));
  }
  return h('nav', { attrs: { 'aria-label': 'Views' } }, h('ul', null, ...items));
}
