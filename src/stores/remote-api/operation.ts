/**
 * One operation of the remote-api store from start to result: the token it runs with (asked of the
 * credentials provider once per operation, so a browser host can refresh it between operations), the
 * request count and rate limit every result reports, and the token scrubbed from every string of any
 * error that escapes (core/redact.ts).
 */
import { tokenIdentity } from '../../cache/git-cache.js';
import { AuthMissing, DocDbError } from '../../core/errors.js';
import { redactError } from '../../core/redact.js';
import type { OperationMeta, RateLimit } from '../../core/refstore.js';
import type { OpContext } from './client.js';
import { assertTokenShape, type ResolvedConfig } from './config.js';

/**
 * @example
 * const ops = new OperationRunner(cfg);
 * const got = await ops.run('get', async (ctx) => ({ value: await read(ctx), ...ops.meta(ctx) }));
 */
export class OperationRunner {
  /** Rate limit from the last response any operation of this store saw. */
  private lastRateLimit: RateLimit | undefined;

  constructor(private readonly cfg: Pick<ResolvedConfig, 'token' | 'credentials'>) {}

  /** Run an operation; any error that escapes carries no token (message, data, causes). */
  async run<T>(operation: string, fn: (ctx: OpContext) => Promise<T>): Promise<T> {
    let ctx: OpContext | undefined;
    try {
      ctx = await this.begin(operation);
      return await fn(ctx);
    } catch (e) {
      // Every string the error carries (message, data such as GitHub's echoed message, causes).
      redactError(e, [ctx?.token]);
      if (ctx?.rateLimit) this.lastRateLimit = ctx.rateLimit;
      if (e instanceof DocDbError && ctx) {
        (e.data as Record<string, unknown>).requests ??= ctx.requests;
      }
      throw e;
    }
  }

  /** What a result reports: the operation's request count and the freshest rate limit known. */
  meta(ctx: OpContext): OperationMeta {
    // An operation served entirely from cache reports the last rate limit this store saw.
    const rateLimit = ctx.rateLimit ?? this.lastRateLimit;
    if (ctx.rateLimit) this.lastRateLimit = ctx.rateLimit;
    return rateLimit ? { requests: ctx.requests, rateLimit } : { requests: ctx.requests };
  }

  private async begin(operation: string): Promise<OpContext> {
    const token = this.cfg.token ?? (this.cfg.credentials ? await this.askCredentials(operation) : undefined);
    return { operation, token, tokenId: tokenIdentity(token), requests: 0 };
  }

  /** The provider's token; undefined when it has none (an anonymous operation). */
  private async askCredentials(operation: string): Promise<string | undefined> {
    let t: string | undefined | null;
    try {
      t = await this.cfg.credentials?.();
    } catch (e) {
      throw new AuthMissing(`${operation}: the credentials provider failed`, { operation }, { cause: e });
    }
    if (t === undefined || t === null || t === '') return undefined;
    assertTokenShape(t, 'credentials');
    return t;
  }
}
