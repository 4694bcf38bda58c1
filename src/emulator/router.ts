/**
 * Matching requests to routes (RouteDef, ./route-context.ts: method + path template → handler, with the
 * OpenAPI operationId and documentation URL of each operation). Templates use `{name}` for one path
 * segment and `{name+}` / `{name*}` for the rest of the path (refs such as `heads/feature/x` contain
 * slashes).
 */
import type { RouteDef } from './route-context.js';

export interface Route extends RouteDef {
  regex: RegExp;
  keys: string[];
  /** True when the template starts with /repos/{owner}/{repo}. */
  repoScoped: boolean;
}

/**
 * A route definition with its path template compiled to a regular expression.
 *
 * @example
 * compileRoute({ method: 'GET', path: '/repos/{owner}/{repo}', operation: 'repos/get', doc, handler }).repoScoped; // true
 */
export function compileRoute(def: RouteDef): Route {
  const keys: string[] = [];
  const src = def.path.replace(/\{(\w+)([+*]?)\}/g, (_m, name: string, mod: string) => {
    keys.push(name);
    return mod === '+' ? '(.+)' : mod === '*' ? '(.*)' : '([^/]+)';
  });
  return { ...def, regex: new RegExp(`^${src}$`), keys, repoScoped: def.path.startsWith('/repos/{owner}/{repo}') };
}

/** A matched route and its path parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/**
 * Find the route for a method and raw path; params are percent-decoded.
 *
 * @example
 * matchRoute(ROUTES, 'GET', '/repos/o/r/git/ref/heads/main')?.params; // { owner: 'o', repo: 'r', ref: 'heads/main' }
 */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
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
