/**
 * One operation of the remote-api store from start to result: the token it runs with (asked of the
 * credentials provider once per operation, so a browser host can refresh it between operations), the
 * request count and rate limit every result reports, and — as a last line of defence — the token scrubbed
 * from any error that escapes.
 */
import { tokenIdentity } from '../../cache/git-cache.js';
import { AuthMissing, DocDbError } from '../../core/errors.js';
import type { OperationMeta, RateLimit } from '../../core/refstore.js';
import type { OpContext } from './client.js';
import { assertTokenShape, type ResolvedConfig } from './config.js';

/** Errors nest their causes; a token is looked for this deep. */
const MAX_CAUSE_DEPTH = 8;

/**
 * @example
 * const ops = new OperationRunner(cfg);
 * const got = await ops.run('get', async (ctx) => ({ value: await read(ctx), ...ops.meta(ctx) }));
 */
export class OperationRunner {
  /** Rate limit from the last response any operation of this store saw. */
  private lastRateLimit: RateLimit | undefined;

  constructor(private readonly cfg: Pick<ResolvedConfig, 'token' | 'credentials'>) {}

  /** Run an operation; as a last line of defence, scrub the token from any error message. */
  async run<T>(operation: string, fn: (ctx: OpContext) => Promise<T>): Promise<T> {
    let ctx: OpContext | undefined;
    try {
      ctx = await this.begin(operation);
      return await fn(ctx);
    } catch (e) {
      const token = ctx?.token;
      if (token && e instanceof Error) redactToken(e, token);
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

/** Replace the token in the message and stack of `e` and of its causes. */
function redactToken(e: Error, token: string): void {
  let x: unknown = e;
  for (let depth = 0; x instanceof Error && depth < MAX_CAUSE_DEPTH; depth++, x = x.cause) {
    if (x.message.includes(token)) x.message = x.message.split(token).join('[REDACTED]');
    if (x.stack?.includes(token)) x.stack = x.stack.split(token).join('[REDACTED]');
  }
}
