/**
 * The process-wide "not before" gates of GitHub's rate limits, one per (API origin, token identity): what
 * every client of the process that talks to that origin with that token consults before sending and
 * closes when GitHub answers with a rate limit — the remote-api store (stores/remote-api/pacing.ts) and
 * the Octokit instances of createOctokit (transport/create-octokit.ts), so that a limit met by one is
 * honoured by all (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api).
 * State only: waiting, and the clock it is measured on, are the callers'.
 */

/** One (API origin, token identity)'s gate and write lane. */
export interface RateGate {
  /** No request before this time (epoch ms). */
  notBefore: number;
  /** Bumped each time the gate closes, so an operation waits once per closing. */
  generation: number;
  /** Consecutive secondary answers without an end (the exponent of the fallback wait). */
  unknownStreak: number;
  /** The last mutating request's turn in the write lane. */
  lane: Promise<void>;
  lastMutationAt: number;
}

const gates = new Map<string, RateGate>();

/**
 * The gate of an API origin and token identity (core/token-identity.ts), created open.
 *
 * @example
 * const gate = rateGate('https://api.github.com', tokenIdentity(token));
 * if (gate.notBefore > Date.now()) wait();
 */
export function rateGate(origin: string, tokenId: string): RateGate {
  const key = `${origin}\u0000${tokenId}`;
  let g = gates.get(key);
  if (!g) {
    g = { notBefore: 0, generation: 0, unknownStreak: 0, lane: Promise.resolve(), lastMutationAt: -Infinity };
    gates.set(key, g);
  }
  return g;
}

/**
 * Close a gate until `until` (epoch ms; a later closing wins); returns the new generation.
 *
 * @example
 * closeRateGate(gate, Date.now() + retryAfter * 1000);
 */
export function closeRateGate(gate: RateGate, until: number): number {
  gate.notBefore = Math.max(gate.notBefore, until);
  return ++gate.generation;
}
