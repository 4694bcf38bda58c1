/**
 * A search without `type` on the GitHub API store: the first round's `childFiles` hint names each type's
 * `delta.txt` beside its manifest (search-read.ts FIRST_FILES), because GraphQL sends a folder's blob texts with
 * its listing anyway — so the shards round finds the deltas in the store's cache and does not ask for them again.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../src/document/document-store.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import { store as apiStore, emulatorPerFile, makeTransport, TOKEN } from '../../remote-api/helpers.js';

const fx = emulatorPerFile();
const doc = (type: string, i: number) => ({
  namespace: 'github',
  type,
  id: `o/${type}${i}`,
  data: { title: `shared word ${type} number ${i}` },
});

/** A transport keeping the text of every GraphQL request body it sends. */
function loggingBodies(bodies: string[]): HttpTransport {
  const inner = makeTransport('fetch', fx.em, TOKEN);
  return {
    async request(req) {
      if (req.url.endsWith('/graphql') && req.body) bodies.push(new TextDecoder().decode(req.body));
      return inner.request(req);
    },
  };
}

describe('a search without type, cold, on the GitHub API store', () => {
  it('reads each type’s delta.txt once: with the first round, not again with the shards', async () => {
    const seed = new DocumentStore(apiStore(fx.em, fx.repo));
    await seed.putMany([...[0, 1, 2].map((i) => doc('repo', i)), ...[0, 1].map((i) => doc('issue', i))], {
      search: [
        { namespace: 'github', type: 'repo', fields: ['data.title'] },
        { namespace: 'github', type: 'issue', fields: ['data.title'] },
      ],
    });
    const bodies: string[] = [];
    const docs = new DocumentStore(apiStore(fx.em, fx.repo, { transport: loggingBodies(bodies) }));
    const r = await docs.search('shared', { namespace: 'github', limit: 10 });
    expect(r.total).toBe(5);
    expect(bodies.length).toBeGreaterThan(1);
    // The first query walks _docdb/search/github/ (the hint); no later query names a delta.txt.
    expect(bodies[0]).toContain('_docdb/search/github');
    const later = bodies.slice(1).filter((b) => b.includes('delta.txt'));
    expect(later, later.join('\n')).toEqual([]);
  });
});
