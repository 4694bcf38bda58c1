/**
 * Route table: method + path template → handler, with the OpenAPI operationId and documentation URL
 * of each operation. Templates use `{name}` for one path segment and `{name+}` / `{name*}` for the
 * rest of the path (refs such as `heads/feature/x` contain slashes).
 */
import type { ApiResponse } from './http.js';
import type { Urls } from './shapes.js';
import type { EmulatorState, RepoRecord, TokenRecord } from './state.js';

export interface ResolvedOptions {
  treeTruncateLimit: number;
  maxBodyBytes: number;
}

export interface RouteContext {
  state: EmulatorState;
  options: ResolvedOptions;
  urls: Urls;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body (undefined when the request had none). */
  body: unknown;
  /** Resolved and access-checked repository (repo routes only). */
  repo: RepoRecord;
  token: TokenRecord | undefined;
  /** Request path without query, for building Link headers. */
  path: string;
}

export interface RouteDef {
  method: string;
  path: string;
  operation: string;
  doc: string;
  /** Needs write access to the repository (POST/PATCH/DELETE on repo routes). */
  write?: boolean;
  /** Answer 409 "Git Repository is empty." when the repository has no refs. */
  emptyConflict?: boolean;
  /** False for endpoints that cost no rate-limit budget (`GET /rate_limit`), or that charge it themselves. */
  costs?: boolean;
  /**
   * Answer the request. May be async: a route that needs a heavy module loads it with `await import()`
   * inside the handler, so an emulator that never serves the route (the in-page one) never loads it.
   */
  /** The rate-limit resource the route reports in `x-ratelimit-*` (default `core`). */
  resource?: 'core' | 'graphql';
  handler(ctx: RouteContext): ApiResponse | Promise<ApiResponse>;
}

export interface Route extends RouteDef {
  regex: RegExp;
  keys: string[];
  /** True when the template starts with /repos/{owner}/{repo}. */
  repoScoped: boolean;
}

export function compileRoute(def: RouteDef): Route {
  const keys: string[] = [];
  const src = def.path.replace(/\{(\w+)([+*]?)\}/g, (_m, name: string, mod: string) => {
    keys.push(name);
    return mod === '+' ? '(.+)' : mod === '*' ? '(.*)' : '([^/]+)';
  });
  return { ...def, regex: new RegExp(`^${src}$`), keys, repoScoped: def.path.startsWith('/repos/{owner}/{repo}') };
}

/** Find the route for a method and raw path; params are percent-decoded. */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.keys.forEach((k, i) => {
      const raw = m[i + 1] ?? '';
      let v = raw;
      try {
        v = decodeURIComponent(raw);
      } catch {
        v = raw;
      }
      params[k] = v;
    });
    return { route, params };
  }
  return undefined;
}
