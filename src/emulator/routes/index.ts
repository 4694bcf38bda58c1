/**
 * THE route list of the emulator: every route of every file under routes/, in match order. To add
 * endpoints, write `routes/<area>.ts` exporting a `RouteDef[]` and append it here. A route whose
 * handler needs a heavy module (GraphQL) imports it lazily inside the handler.
 */
import type { RouteDef } from '../route-context.js';
import { compileRoute, type Route } from '../router.js';
import { actionsRoutes } from './actions.js';
import { compareRoutes } from './compare.js';
import { contentsRoutes } from './contents.js';
import { gitRoutes } from './git.js';
import { graphqlRoutes } from './graphql.js';
import { issueRoutes } from './issues.js';
import { repoRoutes } from './repos.js';

export const ROUTE_DEFS: readonly RouteDef[] = [
  ...gitRoutes,
  ...repoRoutes,
  ...compareRoutes,
  ...contentsRoutes,
  ...issueRoutes,
  ...actionsRoutes,
  ...graphqlRoutes,
];

export const ROUTES: readonly Route[] = ROUTE_DEFS.map(compileRoute);
