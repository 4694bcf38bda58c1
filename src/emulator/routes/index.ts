/**
 * THE route list of the emulator: every route of every file under routes/, in match order. To add
 * endpoints, write `routes/<area>.ts` exporting a `RouteDef[]` and append it here. A route file imports
 * only the layers below it (route-context, model, shapes, revisions, commit-graph, validate, paginate),
 * never another route file. A route whose handler needs a heavy module (GraphQL) imports it lazily inside
 * the handler.
 */
import type { RouteDef } from '../route-context.js';
import { compileRoute, type Route } from '../router.js';
import { actionsRoutes } from './actions.js';
import { archiveRoutes } from './archive.js';
import { checkRoutes } from './checks.js';
import { commentRoutes } from './comments.js';
import { compareRoutes } from './compare.js';
import { contentsRoutes } from './contents.js';
import { contentsGetRoutes } from './contents-get.js';
import { dispatchRoutes } from './dispatches.js';
import { gitBlobRoutes } from './git-blobs.js';
import { gitCommitRoutes } from './git-commits.js';
import { gitRefRoutes } from './git-refs.js';
import { gitTreeRoutes } from './git-trees.js';
import { graphqlRoutes } from './graphql.js';
import { issueRoutes } from './issues.js';
import { ownerRepoRoutes } from './owner-repos.js';
import { pullRoutes } from './pulls.js';
import { rateLimitRoutes } from './rate-limit.js';
import { repoRoutes } from './repos.js';
import { userRoutes } from './user.js';

export const ROUTE_DEFS: readonly RouteDef[] = [
  ...gitBlobRoutes,
  ...gitTreeRoutes,
  ...gitCommitRoutes,
  ...gitRefRoutes,
  ...repoRoutes,
  ...ownerRepoRoutes,
  ...rateLimitRoutes,
  ...compareRoutes,
  ...contentsGetRoutes,
  ...archiveRoutes,
  ...contentsRoutes,
  ...issueRoutes,
  ...pullRoutes,
  ...commentRoutes,
  ...checkRoutes,
  ...userRoutes,
  ...actionsRoutes,
  ...dispatchRoutes,
  ...graphqlRoutes,
];

export const ROUTES: readonly Route[] = ROUTE_DEFS.map(compileRoute);
