/**
 * Secrets out of errors. An upstream may echo the token it was sent (in an error message, a body, a
 * header), and an error carries what the upstream said in its message, its `data`, its `cause` chain and —
 * for Octokit's errors — the response and request. Every place that lets an error escape to a caller or a
 * log passes it through `redactError` with the secrets it knows (the store's token, the Action's input),
 * which rewrites every string the error reaches; `redactText` does the same for a line about to be printed.
 * Token-shaped strings (GitHub's `ghp_…`, `github_pat_…` and friends) are redacted even when no secret
 * is known — defence in depth, e.g. for a token read from the environment by a dependency.
 */

/** GitHub token formats (https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/). */
const GITHUB_TOKEN_SHAPES = /\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})\b/g;

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Nesting followed into data and causes before giving up (errors are trees, rarely deep). */
const MAX_DEPTH = 12;

/**
 * `text` with every secret and every GitHub-token-shaped string replaced by `[REDACTED]`.
 *
 * @example
 * redactText('HTTP 401: bad token ghp_0123456789abcdefghij0123', []); // 'HTTP 401: bad token [REDACTED]'
 */
export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4 && out.includes(s)) out = out.split(s).join(REDACTED);
  return out.replace(GITHUB_TOKEN_SHAPES, REDACTED);
}

/**
 * Rewrite, in place, every string `e` carries — message, stack, `data` (deeply), the `cause` chain, and the
 * `response`/`request`/`headers` objects HTTP clients attach — with `redactText`. Returns `e`.
 *
 * @example
 * throw redactError(err, [token]); // err.message, err.data.upstreamMessage, err.cause… hold no token
 */
export function redactError<E>(e: E, secrets: readonly (string | undefined)[]): E {
  redactValue(e, secrets, new Set(), 0);
  return e;
}

function redactValue(v: unknown, secrets: readonly (string | undefined)[], seen: Set<object>, depth: number): unknown {
  if (typeof v === 'string') return redactText(v, secrets);
  if (v === null || typeof v !== 'object' || seen.has(v) || depth > MAX_DEPTH) return v;
  seen.add(v);
  if (v instanceof Uint8Array || ArrayBuffer.isView(v)) return v; // bytes are never printed as text
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = redactValue(v[i], secrets, seen, depth + 1);
    return v;
  }
  const keys = new Set(Object.getOwnPropertyNames(v));
  if (v instanceof Error) for (const k of ['message', 'stack', 'cause']) keys.add(k);
  for (const k of keys) {
    const d = Object.getOwnPropertyDescriptor(v, k);
    if (!d || !('value' in d)) continue; // accessors are not evaluated
    const next = redactValue(d.value, secrets, seen, depth + 1);
    if (next !== d.value && d.writable !== false) (v as Record<string, unknown>)[k] = next;
    else if (next !== d.value && d.configurable) Object.defineProperty(v, k, { ...d, value: next });
  }
  return v;
}
