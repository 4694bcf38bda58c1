/** Sentences for versions that do not read, shared by the document view and the section diff. */
import { errors } from '../../browser/index.js';
import type { ViewContext } from '../context.js';
import { h } from '../dom.js';

const short = (sha: string) => sha.slice(0, 7);

/**
 * A sentence for a version that did not read (`param` names the URL parameter): the library's message
 * says why (not a commit of the section; removed by a compaction, and which kept commit holds the same
 * tree — docs/retention.md), and a compacted version gets a link to that kept commit. Anything but
 * `InvalidVersion` is rethrown for the frame to explain.
 *
 * @example
 * try { await read(); } catch (e) { root.append(versionProblem(ctx, 'from', e)); }
 */
export function versionProblem(ctx: ViewContext, param: 'at' | 'from' | 'to', error: unknown): HTMLElement {
  if (!(error instanceof errors.InvalidVersion)) throw error;
  const keptAs = (error.data as { keptAs?: string }).keptAs;
  return h(
    'p',
    { class: 'error', attrs: { role: 'alert' }, dataset: { param } },
    `"${param}" is not a version of this section: ${error.message}`,
    keptAs && ' ',
    keptAs && h('a', { attrs: { href: ctx.link({ [param]: keptAs }) } }, `Open ${short(keptAs)} instead`),
  );
}
