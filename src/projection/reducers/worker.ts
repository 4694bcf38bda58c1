/**
 * Custom reducer modules run in a worker thread, one per projection, so that a reducer that never returns
 * (a busy loop, or a promise that never settles) can be stopped: the main thread keeps a timer per call and
 * terminates the worker when it fires (`worker.terminate()` stops even a synchronous loop), then fails the
 * run with a message naming the projection and its spec line. Without this, a stuck reducer hangs the job
 * until its timeout, and a never-settling promise ends Node with exit code 13 and no message.
 *
 * The worker's code is a string evaluated by Node (`eval: true`), so the Action bundle (ncc) needs no
 * separate worker file. Items and results cross the thread boundary by structured clone, which is fine
 * for JSON-shaped source items and document data.
 * See https://nodejs.org/api/worker_threads.html#workerterminate
 */
import type { Worker } from 'node:worker_threads';
import type { ReducerContext, ReducerResult } from './types.js';

/** Default time one reducer call may take, in seconds (Action input `reducer-timeout`). */
export const DEFAULT_REDUCER_TIMEOUT_SECONDS = 30;

/** Runs inside the worker: import the module, report its function exports, then reduce items on request. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let fn;
(async () => {
  let mod;
  try {
    mod = await import(workerData.url);
  } catch (e) {
    parentPort.postMessage({ type: 'load-error', message: String((e && e.message) || e) });
    return;
  }
  fn = mod[workerData.exportName];
  // A CommonJS module's module.exports = { name: fn } arrives as the default export.
  if (typeof fn !== 'function' && workerData.exportName !== 'default' && mod.default && typeof mod.default === 'object') {
    fn = mod.default[workerData.exportName];
  }
  const exported = Object.keys(mod).filter((k) => typeof mod[k] === 'function').sort();
  parentPort.postMessage({ type: 'loaded', ok: typeof fn === 'function', exported });
})();
parentPort.on('message', async (m) => {
  let value;
  try {
    value = await fn(m.item, m.context);
  } catch (e) {
    parentPort.postMessage({ type: 'error', id: m.id, message: String((e && e.message !== undefined) ? e.message : e) });
    return;
  }
  try {
    parentPort.postMessage({ type: 'result', id: m.id, value });
  } catch (e) {
    parentPort.postMessage({ type: 'unclonable', id: m.id, message: String((e && e.message) || e) });
  }
});
`;

/**
 * Why a worker call failed; `kind` lets the caller word the message.
 *
 * @example
 * if (e instanceof ReducerCallError && e.kind === 'timeout') console.log(`stopped: ${e.message}`);
 */
export class ReducerCallError extends Error {
  constructor(
    readonly kind: 'threw' | 'timeout' | 'unclonable' | 'crashed',
    message: string,
  ) {
    super(message);
    this.name = 'ReducerCallError';
  }
}

type WorkerMessage =
  | { type: 'load-error'; message: string }
  | { type: 'loaded'; ok: boolean; exported: string[] }
  | { type: 'result'; id: number; value: ReducerResult }
  | { type: 'error' | 'unclonable'; id: number; message: string };

export interface WorkerReducerHandle {
  /** Whether the export is a function, and the module's function exports (for the error message). */
  loaded: { ok: boolean; exported: string[] } | { loadError: string };
  reduce(item: unknown, context: ReducerContext): Promise<ReducerResult>;
  close(): Promise<void>;
}

/**
 * Start a worker that imports `url` and resolve once the module is loaded (or failed to load).
 * Every later `reduce` call must settle within `timeoutMs`, else the worker is terminated.
 *
 * @example
 * const h = await startReducerWorker(pathToFileURL(file).href, 'default', 30_000);
 * if ('ok' in h.loaded && h.loaded.ok) await h.reduce(item, context);
 * await h.close();
 */
export async function startReducerWorker(
  url: string,
  exportName: string,
  timeoutMs: number,
): Promise<WorkerReducerHandle> {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { url, exportName } });
  // The worker must not keep the process alive on its own; pending calls keep their (ref'd) timers.
  worker.unref();
  const calls = new WorkerCalls(worker, timeoutMs);
  const loaded = await calls.loaded();
  return { loaded, reduce: (item, context) => calls.reduce(item, context), close: () => calls.close() };
}

type Loaded = WorkerReducerHandle['loaded'];

/**
 * The calls in flight to one worker, each with its timer. Once the worker is dead (timed out, crashed or
 * closed) every pending and later call fails with the reason.
 */
class WorkerCalls {
  private readonly pending = new Map<number, { resolve: (v: ReducerResult) => void; reject: (e: Error) => void }>();
  private onLoaded: ((m: Loaded) => void) | undefined;
  private dead: ReducerCallError | undefined;
  private next = 0;

  constructor(
    private readonly worker: Worker,
    private readonly timeoutMs: number,
  ) {
    worker.on('message', (m: WorkerMessage) => this.receive(m));
    worker.on('error', (e) => this.failAll(new ReducerCallError('crashed', e.message)));
    worker.on('exit', (code) =>
      this.failAll(new ReducerCallError('crashed', `the reducer's worker exited (code ${code})`)),
    );
  }

  /** Wait for the module to load (or fail to); call once, right after construction. */
  async loaded(): Promise<Loaded> {
    const loaded = await new Promise<Loaded>((resolve) => {
      this.onLoaded = resolve;
    });
    this.onLoaded = undefined;
    return loaded;
  }

  reduce(item: unknown, context: ReducerContext): Promise<ReducerResult> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    return new Promise<ReducerResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const e = new ReducerCallError('timeout', `did not return within ${this.timeoutMs / 1000} s`);
        this.dead = e;
        reject(e);
        void this.worker.terminate();
      }, this.timeoutMs);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.worker.postMessage({ id, item, context });
    });
  }

  async close(): Promise<void> {
    this.dead ??= new ReducerCallError('crashed', 'the reducer worker was closed');
    await this.worker.terminate();
  }

  private receive(m: WorkerMessage): void {
    if (m.type === 'load-error') this.onLoaded?.({ loadError: m.message });
    else if (m.type === 'loaded') this.onLoaded?.({ ok: m.ok, exported: m.exported });
    else {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.type === 'result') p.resolve(m.value);
      else p.reject(new ReducerCallError(m.type === 'error' ? 'threw' : 'unclonable', m.message));
    }
  }

  private failAll(e: ReducerCallError): void {
    this.dead ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    this.onLoaded?.({ loadError: e.message });
  }
}
