/**
 * Rate-limit budgets: a limit per hour-long window that starts when the budget is created and restarts
 * once it has passed (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api).
 */
import type { Budget } from '../model.js';

const HOUR = 3600;

/**
 * A fresh budget whose window ends an hour from `nowMs`.
 *
 * @example
 * newBudget(5000, Date.now()); // { limit: 5000, used: 0, reset: <epoch seconds an hour ahead> }
 */
export function newBudget(limit: number, nowMs: number): Budget {
  return { limit, used: 0, reset: Math.floor(nowMs / 1000) + HOUR };
}

/**
 * Start a new window when the current one has passed; returns the same object.
 *
 * @example
 * refreshBudget(token.budget, Date.now()).used; // 0 after the reset time
 */
export function refreshBudget(b: Budget, nowMs: number): Budget {
  const nowS = Math.floor(nowMs / 1000);
  if (nowS >= b.reset) {
    b.used = 0;
    b.reset = nowS + HOUR;
  }
  return b;
}
