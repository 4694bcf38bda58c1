/**
 * `GET /user` (https://docs.github.com/rest/users/users#get-the-authenticated-user): the token's own
 * account, which a client needs to recognise what it wrote (a review's sticky comment). An installation
 * token (`GITHUB_TOKEN`) is not a user: GitHub answers it 403 `Resource not accessible by integration`.
 */
import { notAccessible } from '../auth.js';
import { ApiError } from '../http.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { privateUserShape } from '../shapes/users.js';

const DOC = 'https://docs.github.com/rest/users/users#get-the-authenticated-user';

function getAuthenticatedUser(ctx: RouteContext) {
  if (!ctx.token) throw new ApiError(401, 'Requires authentication', DOC);
  if (ctx.token.bot) throw notAccessible(ctx.token, DOC);
  return { status: 200, body: privateUserShape(ctx.token.user, ctx.urls) };
}

export const userRoutes: RouteDef[] = [
  { method: 'GET', path: '/user', operation: 'users/get-authenticated', doc: DOC, handler: getAuthenticatedUser },
];
