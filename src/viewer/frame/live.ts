/**
 * Live updates (issue 29 item 7): while a view shows the tip (no `at`), follow the section with
 * `client.watch()` — conditional ref reads, 304s while nothing moved (free on GitHub when authorized:
 * https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate),
 * paused while the tab is hidden (the watch's VisibilitySource, src/core/watch.ts) — and when it moves,
 * say so in a banner with an Update button. Nothing re-renders on its own: the visitor chooses.
 */
import type { DocDbClient, VisibilitySource } from '../../browser/index.js';
import { clear, h } from '../dom.js';

export type LiveState = 'off' | 'polling' | 'paused';

export interface LiveOptions {
  client: DocDbClient;
  /** The version the view shows: changes after it are reported. */
  since: string;
  interval: number;
  /** Ends the watch (the view's signal: a new render stops it). */
  signal: AbortSignal;
  visibility: VisibilitySource;
  banner: HTMLElement;
  /** Re-render at the new tip (the frame replaces the history entry). */
  update(): void;
  /** Poll errors (backing off) and a watch that ended with an error, as a sentence. */
  problem(message: string): void;
  /** Each state change (`paused` while the tab is hidden and the watch waits for it). */
  onState(state: LiveState): void;
}

/**
 * Follow the section until `signal` aborts; resolves then (errors go to `problem`).
 *
 * @example
 * void followSection({ client, since: version, interval: 60_000, signal, visibility: document, banner, update, problem, onState });
 */
export async function followSection(o: LiveOptions): Promise<void> {
  clear(o.banner);
  o.banner.hidden = true;
  o.onState('polling');
  try {
    // The view just read the tip: the first poll waits one interval (watch itself polls at once).
    await abortableWait(o.interval, o.signal);
    if (o.signal.aborted) return;
    await o.client.watch(
      {
        since: o.since,
        interval: o.interval,
        signal: o.signal,
        visibility: observedVisibility(o.visibility, o.onState),
        onError: (_e, retryIn) =>
          o.problem(`Could not check for new commits; trying again in ${Math.round(retryIn / 1000)} s.`),
      },
      (change) => {
        if (o.signal.aborted) return;
        const counts = [
          [change.added.length, 'added'],
          [change.modified.length, 'changed'],
          [change.removed.length, 'removed'],
        ]
          .filter(([n]) => n)
          .map(([n, what]) => `${n} ${what}`)
          .join(', ');
        clear(o.banner);
        o.banner.append(
          h('p', null, `The section changed (new commit `, h('code', { text: change.to.slice(0, 7) }), `: ${counts}).`),
          h('button', { attrs: { type: 'button' }, class: 'primary', on: { click: () => o.update() } }, 'Update'),
        );
        o.banner.hidden = false;
      },
    );
  } catch (error) {
    if (!o.signal.aborted) o.problem(`Stopped following the section: ${(error as Error).message}`);
  } finally {
    o.onState('off');
  }
}

function abortableWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * The visibility source handed to the watch, telling the frame when the watch waits for the tab to be
 * shown: watch listens for `visibilitychange` only while it is paused (src/core/watch.ts whenVisible).
 */
function observedVisibility(v: VisibilitySource, onState: (s: LiveState) => void): VisibilitySource {
  return {
    get hidden() {
      return v.hidden;
    },
    addEventListener(type, listener) {
      v.addEventListener(type, listener);
      onState('paused');
    },
    removeEventListener(type, listener) {
      v.removeEventListener(type, listener);
      onState('polling');
    },
  };
}
