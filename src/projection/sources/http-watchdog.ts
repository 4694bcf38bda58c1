/**
 * The clocks of an `http` source read: a `Deadline` for the whole read of one URL (every attempt and the
 * waits between them), and a `Watchdog` per attempt that aborts when nothing arrives for `timeout` — each
 * step (the answer's headers, each body chunk) restarts it, so a slow but steady download is fine and a
 * stalled one is not. Without the deadline, a server sending one byte every 29 s would only be stopped by
 * the 50 MB cap.
 */
import { InvalidResponse, TransportError } from '../../core/errors.js';
import { SOURCE_OPERATION } from './source-error.js';

/**
 * The overall time limit of one URL; `signal` aborts when it passes.
 *
 * @example
 * const deadline = new Deadline(600_000);
 * try { await fetch(url, { signal: deadline.signal }); } finally { deadline.stop(); }
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(readonly ms: number) {
    this.timer = setTimeout(() => this.controller.abort(), ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get passed(): boolean {
    return this.controller.signal.aborted;
  }

  /** The error of a read that ran out of time, after `attempts` attempts. */
  error(url: string, attempts: number, cause?: unknown): TransportError {
    return new TransportError(
      `http source: GET ${url}: no complete answer within ${this.ms / 1000} s (the source's "deadline"), after ${attempts} attempt(s)`,
      { url, operation: SOURCE_OPERATION, reason: 'deadline', field: 'deadline', attempts },
      cause === undefined ? {} : { cause },
    );
  }

  /** Wait `ms`, or less when the deadline passes first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal.addEventListener('abort', done, { once: true });
    });
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/**
 * Aborts one attempt when nothing arrives for `timeoutMs`, or when the deadline passes.
 *
 * @example
 * const watchdog = new Watchdog(30_000, deadline);
 * const res = await watchdog.run(url, () => fetch(url, { signal: watchdog.signal }));
 */
export class Watchdog {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onDeadline = () => this.controller.abort();

  constructor(
    private readonly timeoutMs: number,
    private readonly deadline: Deadline,
  ) {
    if (deadline.passed) this.controller.abort();
    else deadline.signal.addEventListener('abort', this.onDeadline, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  async run<T>(url: string, step: () => Promise<T>): Promise<T> {
    this.timer = setTimeout(() => this.controller.abort(), this.timeoutMs);
    try {
      return await step();
    } catch (e) {
      if (e instanceof InvalidResponse) throw e;
      if (this.deadline.passed) throw this.deadline.error(url, 1, e); // the caller counts the attempts
      const why = this.controller.signal.aborted
        ? `no answer for ${this.timeoutMs / 1000} s (the source's "timeout")`
        : (e as Error)?.message;
      throw new TransportError(
        `http source: GET ${url} failed: ${why}`,
        { url, operation: SOURCE_OPERATION },
        { cause: e },
      );
    } finally {
      clearTimeout(this.timer);
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.deadline.signal.removeEventListener('abort', this.onDeadline);
  }
}
