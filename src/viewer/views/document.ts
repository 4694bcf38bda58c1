/**
 * The document view (`view=document&ns&type&id`, optional `at`, `from`, `to`; issue 29 item 4): the
 * document at the view's version as a collapsible tree, every version of it (paged history), and the field
 * diff between any two versions. Cost from a cold page: the tip (frame), the document and one history page;
 * picking an older version pins `at` to the newer one, so the diff adds only the older document's read.
 */
import type { Envelope, Identity } from '../../browser/index.js';
import type { View, ViewContext } from '../context.js';
import { documentChanges, fieldDiff } from '../document/field-diff.js';
import { versionProblem } from '../document/problems.js';
import { documentAt, historyPage, identityOf } from '../document/reads.js';
import { jsonTree } from '../document/tree.js';
import { versionPicker } from '../document/versions.js';
import { h } from '../dom.js';

const short = (sha: string) => sha.slice(0, 7);
const label = (i: Identity) => `${i.namespace}/${i.doc_type}/${i.id}`;

type Read = { doc: Envelope | null; problem?: undefined } | { doc?: undefined; problem: HTMLElement };

async function readOr(ctx: ViewContext, param: 'from' | 'to', read: () => Promise<Envelope | null>): Promise<Read> {
  try {
    return { doc: await read() };
  } catch (error) {
    return { problem: versionProblem(ctx, param, error) };
  }
}

/** The diff panel for `from`/`to` (to: the view's version by default). */
async function diffPanel(ctx: ViewContext, identity: Identity, shown: Envelope | null): Promise<HTMLElement> {
  const from = ctx.state.from as string;
  const to = ctx.state.to ?? (ctx.version as string);
  const [older, newer] = await Promise.all([
    readOr(ctx, 'from', () => documentAt(ctx.client, identity, from)),
    to === ctx.version ? ({ doc: shown } as Read) : readOr(ctx, 'to', () => documentAt(ctx.client, identity, to)),
  ]);
  const section = h(
    'section',
    { class: 'doc-diff card', attrs: { 'aria-labelledby': 'doc-diff-title' } },
    h('h2', { attrs: { id: 'doc-diff-title' } }, `Changes from ${short(from)} to ${short(to)}`),
  );
  if (older.problem || newer.problem) {
    section.append(...[older.problem, newer.problem].filter((p): p is HTMLElement => p !== undefined));
    return section;
  }
  const absent = (v: string) => `The document does not exist at ${short(v)}`;
  if (!older.doc && !newer.doc) section.append(h('p', null, `${absent(from)} nor at ${short(to)}.`));
  else {
    if (!older.doc) section.append(h('p', null, `${absent(from)}: every field is added.`));
    if (!newer.doc) section.append(h('p', null, `${absent(to)}: every field is removed.`));
    section.append(fieldDiff(documentChanges(older.doc, newer.doc)));
  }
  return section;
}

function documentPanel(ctx: ViewContext, identity: Identity, doc: Envelope | null): HTMLElement {
  const version = ctx.version as string;
  const where = ctx.state.at ? `at version ${short(version)}` : `at the tip (${short(version)})`;
  return h(
    'section',
    { class: 'doc-envelope card', attrs: { 'aria-labelledby': 'doc-envelope-title' } },
    h('h2', { attrs: { id: 'doc-envelope-title' } }, `Document ${where}`),
    doc
      ? jsonTree(doc, `Document ${label(identity)}`)
      : h(
          'p',
          { class: 'error', attrs: { role: 'alert' } },
          `There is no document ${label(identity)} at ${short(version)}: it does not exist at this version (the versions below, if any, say when it existed).`,
        ),
  );
}

export const documentView: View = async (root, ctx) => {
  const who = identityOf(ctx.state);
  if ('problem' in who) {
    root.append(h('p', { class: 'error', attrs: { role: 'alert' } }, who.problem));
    return;
  }
  const { identity } = who;
  root.append(h('h1', { class: 'doc-title' }, label(identity)));
  const version = ctx.version;
  let doc: Envelope | null;
  let first: Awaited<ReturnType<typeof historyPage>>;
  try {
    [doc, first] = await Promise.all([
      documentAt(ctx.client, identity, version),
      historyPage(ctx.client, identity, version),
    ]);
  } catch (error) {
    root.append(versionProblem(ctx, 'at', error));
    return;
  }
  if (ctx.signal.aborted) return;
  const diff = ctx.state.from ? await diffPanel(ctx, identity, doc) : undefined;
  if (ctx.signal.aborted) return;
  root.append(
    h('div', { class: 'doc-layout' }, diff, documentPanel(ctx, identity, doc), versionPicker(ctx, identity, first)),
  );
};
