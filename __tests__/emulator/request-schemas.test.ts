/**
 * Property test: request bodies that violate the operation's request schema (from GitHub's OpenAPI
 * description) are refused with 422, never accepted and never a 500; the emulator keeps serving.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';
import { apiClient, requestBodyValid } from './openapi-validator.js';

const R = '/repos/acme/data';
let em: EmulatorHandle;
let api: ReturnType<typeof apiClient>;
let tip: string;
let tree: string;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo('acme/data');
  em.state.addToken('tok', { login: 'acme' });
  api = apiClient(em.url, 'tok');
  tip = em.state.repo('acme/data').db.readRef('refs/heads/main') as string;
  tree = em.state.repo('acme/data').db.getCommit(tip).tree;
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
    {
      nil: undefined,
    },
  );

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

describe('request bodies are checked against the request schemas', () => {
  const cases: [string, string, () => fc.Arbitrary<Record<string, unknown>>][] = [
    [
      'POST',
      `${R}/git/blobs`,
      () =>
        fc.record({ content: field(fc.string()), encoding: field(fc.constantFrom('utf-8', 'base64')) }).map(compact),
    ],
    [
      'POST',
      `${R}/git/commits`,
      () =>
        fc
          .record({
            message: field(fc.string()),
            tree: field(fc.constant(tree)),
            parents: field(fc.constant([tip])),
            author: field(
              fc.record({
                name: fc.string({ minLength: 1 }).filter((s) => !/[<>\n]/.test(s)),
                email: fc.constant('a@b.c'),
              }),
            ),
          })
          .map(compact),
    ],
    [
      'POST',
      `${R}/git/refs`,
      () => fc.record({ ref: field(fc.constant('refs/heads/x')), sha: field(fc.constant(tip)) }).map(compact),
    ],
    [
      'PATCH',
      `${R}/git/refs/heads/main`,
      () => fc.record({ sha: field(fc.constant(tip)), force: field(fc.boolean()) }).map(compact),
    ],
    [
      'POST',
      `${R}/git/trees`,
      () =>
        fc
          .record({
            base_tree: field(fc.constant(tree)),
            tree: field(
              fc.array(
                fc
                  .record({
                    path: fc.constantFrom('a.txt', 'd/b.txt'),
                    mode: field(fc.constantFrom('100644', '100755', '644')),
                    content: field(fc.string()),
                  })
                  .map(compact),
                { maxLength: 3 },
              ),
            ),
          })
          .map(compact),
    ],
    [
      'POST',
      `${R}/dispatches`,
      () =>
        fc
          .record({
            event_type: field(fc.string({ maxLength: 120 })),
            client_payload: field(fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 13 })),
          })
          .map(compact),
    ],
  ];

  for (const [method, path, arb] of cases) {
    it(`${method} ${path.slice(R.length)}`, async () => {
      let invalid = 0;
      await fc.assert(
        fc.asyncProperty(arb(), async (body) => {
          const r = await api(method, path, body);
          expect(r.status).toBeLessThan(500);
          if (!requestBodyValid(method, path, body)) {
            invalid++;
            expect(r.status).toBe(422);
          }
          // Undo a successful ref creation so the next run starts from the same state.
          if (method === 'POST' && path.endsWith('/git/refs') && r.status === 201)
            em.state.repo('acme/data').db.compareAndSwapRef('refs/heads/x', tip, null);
        }),
        { numRuns: 40, seed: 42 },
      );
      expect(invalid).toBeGreaterThan(0);
      expect((await api('GET', `${R}/git/ref/heads/main`)).status).toBe(200);
    });
  }
});
