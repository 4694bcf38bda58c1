/**
 * The browser client keeps a type's schema (issue 38), in real chromium against the emulator on loopback:
 * a schema declared from Node refuses a bad `put` made by the page's client — InvalidDocument naming the
 * key, pointer, rule and the type found (never the value), the section's tip unchanged — and a good put
 * lands; on the IndexedDB backend the page declares a schema itself and its bad put is refused the same way.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { freshRepo, OWNER, store, TOKEN } from '../remote-api/helpers.js';
import { chromiumAndEmulator } from './emulator-page.js';

const world = chromiumAndEmulator();
const SCHEMA = { type: 'object', required: ['stars'], properties: { stars: { type: 'integer', minimum: 0 } } };

interface PutOutcome {
  bad: { code?: string; data?: unknown; message?: string; version?: string | null };
  good: string | null;
  schema: unknown;
}

/** In the page: a client (remote on `repo`, or IndexedDB), a bad put then a good one. */
function pagePuts(page: Page, args: { repo: string | null; declare: boolean }): Promise<PutOutcome> {
  return page.evaluate(
    async ({ repo, apiUrl, owner, token, declare, schema }) => {
      const { loadDocDbClient } = (window as unknown as { docdb: typeof import('../../src/browser/index.js') }).docdb;
      const client =
        repo === null
          ? await loadDocDbClient({ backend: 'indexeddb', hostCapabilities: { store: { name: 'schema-test' } } })
          : await loadDocDbClient({ owner, repo, apiUrl, hostCapabilities: { credentials: async () => token } });
      const type = { namespace: 'github', type: 'repo' };
      if (declare) await client.declareSchema(type, schema);
      let bad: PutOutcome['bad'] = {};
      try {
        const r = await client.put({ ...type, id: 'o/bad', data: { stars: 'a-secret-value' } });
        bad = { version: r.version };
      } catch (e) {
        const err = e as { code?: string; data?: unknown; message?: string };
        bad = { code: err.code, data: err.data, message: err.message };
      }
      const good = await client.put({ ...type, id: 'o/good', data: { stars: 5 } });
      const out = { bad, good: good.version, schema: await client.schema(type) };
      client.close();
      return out;
    },
    { ...args, apiUrl: world.em.url, owner: OWNER, token: TOKEN, schema: SCHEMA },
  );
}

const VIOLATION = { key: 'github/repo/o/bad.json', pointer: '/data/stars', rule: 'type', found: 'string' };

describe('the browser client refuses a document that breaks its type schema', () => {
  it('remote backend: a schema declared from Node refuses the page’s bad put; the tip is unchanged', async () => {
    const repo = freshRepo(world.em);
    const node = new DocumentStore(store(world.em, repo));
    const declared = await node.declareSchema({ namespace: 'github', type: 'repo' }, SCHEMA);
    const page = await world.newPage();
    const from = world.em.requests.length;
    const out = await pagePuts(page, { repo, declare: false });
    expect(out.bad).toMatchObject({
      code: 'InvalidDocument',
      data: { field: 'data', count: 1, violations: [VIOLATION] },
    });
    expect(JSON.stringify(out.bad)).not.toContain('a-secret-value');
    expect(out.schema).toEqual(SCHEMA);
    // Only the good put moved the section: one commit on top of the declaration.
    const log = (await node.store.commits?.({ limit: 5 }))?.entries.map((e) => e.version);
    expect(log?.slice(0, 2)).toEqual([out.good, declared.version]);
    // The refused put created nothing upstream: the page's only commit is the good one.
    const commits = world.em.requests.slice(from).filter((r) => r.operation === 'git/create-commit');
    expect(commits).toHaveLength(1);
  });

  it('IndexedDB backend: the page declares the schema, then its bad put is refused', async () => {
    const page = await world.newPage();
    const out = await pagePuts(page, { repo: null, declare: true });
    expect(out.bad).toMatchObject({ code: 'InvalidDocument', data: { count: 1, violations: [VIOLATION] } });
    expect(out.good).toMatch(/^[0-9a-f]{40}$/);
  });
});
