/**
 * Property test, as ./request-schemas.test.ts for the review routes (issue 39): request bodies that
 * violate the operation's request schema (GitHub's OpenAPI description) are refused with 422, never
 * accepted and never a 500.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';
import { apiClient, requestBodyValid } from './openapi-validator.js';

const R = '/repos/acme/data';
let em: EmulatorHandle;
let api: ReturnType<typeof apiClient>;
let head: string;
let runId: number;
let commentId: number;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo('acme/data');
  em.state.addToken('ghs_tok', { login: 'acme', rateLimit: 1_000_000 });
  api = apiClient(em.url, 'ghs_tok');
  head = em.state.commitFiles('acme/data', { branch: 'f', files: { a: '1' } });
  em.state.addPull('acme/data', { title: 't', head: 'f' });
  runId = (await api('POST', `${R}/check-runs`, { name: 'c', head_sha: head })).body.id;
  commentId = (await api('POST', `${R}/issues/1/comments`, { body: 'x' })).body.id;
});
afterAll(() => em.stop());

/** A field that is usually well-typed, sometimes missing, sometimes of the wrong JSON type. */
const field = <T>(good: fc.Arbitrary<T>) =>
  fc.option(
    fc.oneof(
      { weight: 3, arbitrary: good as fc.Arbitrary<unknown> },
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
    ),
    { nil: undefined },
  );

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const annotation = () =>
  fc
    .record({
      path: field(fc.constant('spec.yml')),
      start_line: field(fc.integer({ min: 1, max: 9 })),
      end_line: field(fc.integer({ min: 1, max: 9 })),
      annotation_level: field(fc.constantFrom('notice', 'warning', 'failure', 'fatal')),
      message: field(fc.string({ maxLength: 5 })),
    })
    .map(compact);

const output = (required: boolean) =>
  fc
    .record({
      title: required ? field(fc.string({ maxLength: 5 })) : fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
      summary: field(fc.string({ maxLength: 5 })),
      annotations: field(fc.array(annotation(), { maxLength: 3 })),
    })
    .map(compact);

describe('review request bodies are checked against the request schemas', () => {
  const cases: [string, () => string, () => fc.Arbitrary<Record<string, unknown>>][] = [
    [
      'POST',
      () => `${R}/issues/1/comments`,
      () => fc.record({ body: field(fc.string({ maxLength: 5 })) }).map(compact),
    ],
    [
      'PATCH',
      () => `${R}/issues/comments/${commentId}`,
      () => fc.record({ body: field(fc.string({ maxLength: 5 })) }).map(compact),
    ],
    [
      'POST',
      () => `${R}/check-runs`,
      () =>
        fc
          .record({
            name: field(fc.constant('docdb: documents')),
            head_sha: field(fc.constant(head)),
            status: field(fc.constantFrom('queued', 'completed', 'done')),
            conclusion: field(fc.constantFrom('success', 'neutral', 'failure', 'great')),
            started_at: field(fc.constantFrom('2026-01-01T00:00:00Z', 'yesterday')),
            output: field(output(true)),
          })
          .map(compact),
    ],
    [
      'PATCH',
      () => `${R}/check-runs/${runId}`,
      () =>
        fc
          .record({ conclusion: field(fc.constantFrom('success', 'failure', 'great')), output: field(output(false)) })
          .map(compact),
    ],
    [
      'POST',
      () => `${R}/statuses/${head}`,
      () =>
        fc
          .record({
            state: field(fc.constantFrom('success', 'failure', 'pending', 'error', 'ok')),
            context: field(fc.constant('docdb: documents')),
            description: field(fc.string({ maxLength: 5 })),
            target_url: field(fc.constant('https://example.org/x')),
          })
          .map(compact),
    ],
  ];

  for (const [method, path, arb] of cases) {
    it(`${method} ${path.toString().replace(/^.*\$\{R\}|`$/g, '')}`, async () => {
      let invalid = 0;
      await fc.assert(
        fc.asyncProperty(arb(), async (body) => {
          const r = await api(method, path(), body);
          expect(r.status).toBeLessThan(500);
          if (!requestBodyValid(method, path(), body)) {
            invalid++;
            expect(r.status).toBe(422);
          }
        }),
        { numRuns: 40, seed: 42 },
      );
      expect(invalid).toBeGreaterThan(0);
    });
  }
});
