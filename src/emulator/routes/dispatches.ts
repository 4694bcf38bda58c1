/**
 * `POST /repos/{owner}/{repo}/dispatches` (https://docs.github.com/rest/repos/repos#create-a-repository-dispatch-event):
 * a `repository_dispatch` event, answered 204 with no body. Needs write access (the workflow token with
 * `contents: write`; 404 for a repository the token cannot see, 403 when it can only read). GitHub's
 * OpenAPI description: `event_type` 1–100 characters, `client_payload` at most 10 top-level properties
 * and less than 64 KB in all. The emulator records each event on the repository (`repo.dispatches`), so
 * tests and offline runs can see what a listening workflow would have received.
 */
import { utf8 } from '../../core/bytes.js';
import { invalidRequest } from '../http.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { checkProps, objectBody, requireKeys } from '../validate.js';

const DOC = 'https://docs.github.com/rest/repos/repos#create-a-repository-dispatch-event';
const MAX_EVENT_TYPE = 100;
const MAX_PAYLOAD_PROPERTIES = 10;
const MAX_PAYLOAD_BYTES = 64 * 1024;

function createDispatch(ctx: RouteContext) {
  const body = objectBody(ctx.body, DOC);
  requireKeys(body, ['event_type'], DOC);
  checkProps(body, { event_type: 'string', client_payload: 'object' }, DOC);
  const eventType = body.event_type as string;
  if (eventType.length < 1 || eventType.length > MAX_EVENT_TYPE) {
    throw invalidRequest(
      `For 'properties/event_type', ${JSON.stringify(eventType)} must be 1 to ${MAX_EVENT_TYPE} characters.`,
      DOC,
    );
  }
  const payload = (body.client_payload ?? {}) as Record<string, unknown>;
  if (Object.keys(payload).length > MAX_PAYLOAD_PROPERTIES) {
    throw invalidRequest(
      `For 'properties/client_payload', it has ${Object.keys(payload).length} top-level properties; the maximum is ${MAX_PAYLOAD_PROPERTIES}.`,
      DOC,
    );
  }
  const size = utf8(JSON.stringify(body)).length;
  if (size >= MAX_PAYLOAD_BYTES) {
    throw invalidRequest(`The payload is ${size} bytes; it must be less than ${MAX_PAYLOAD_BYTES} (64 KB).`, DOC);
  }
  ctx.repo.dispatches.push({ eventType, clientPayload: payload, sender: ctx.token?.user.login ?? '' });
  return { status: 204 };
}

export const dispatchRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/repos/{owner}/{repo}/dispatches',
    operation: 'repos/create-dispatch-event',
    doc: DOC,
    write: true,
    handler: createDispatch,
  },
];
