/**
 * A search without `type` on the GitHub API store (issue 42): the first round brings every type's manifest of the
 * namespace with the tip and the declaration (readMany's `childFiles` hint, one GraphQL query), so it costs the
 * rounds of a search with `type`. What that answer holds is untrusted: a folder of a type the declaration does
 * not name is never read (even a damaged one), and manifests that did not come are read in a round of their own.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../src/document/document-store.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import {
  store as apiStore,
  emulatorPerFile,
  makeTransport,
  meteredTransport,
  newMeter,
  TOKEN,
} from '../../remote-api/helpers.js';

const fx = emulatorPerFile();
const FIELDS = ['data.title'];
const doc = (type: string, i: number) => ({
  namespace: 'github',
  type,
  id: `o/${type}${i}`,
  data: { title: `shared word ${type} number ${i}` },
});

/** The section: 2 searchable types of github, and a stray damaged manifest of a type never declared. */
async function seeded(): Promise<void> {
  const docs = new DocumentStore(apiStore(fx.em, fx.repo));
  const search = [
    { namespace: 'github', type: 'repo', fields: FIELDS },
    { namespace: 'github', type: 'issue', fields: FIELDS },
  ];
  await docs.putMany([...[0, 1, 2].map((i) => doc('repo', i)), ...[0, 1].map((i) => doc('issue', i))], { search });
  // A raw write bypasses search: a folder no declaration names, its manifest not even JSON.
  await apiStore(fx.em, fx.repo).put('_docdb/search/github/stray/manifest.json', 'not json');
}

/** A transport that drops the `childFiles` part (`d`) of every GraphQL answer (as if none of it came), and
 * logs each request it sends. */
function withoutChildren(sent: string[]): HttpTransport {
  const inner = makeTransport('fetch', fx.em, TOKEN);
  return {
    async request(req) {
      const res = await inner.request(req);
      sent.push(`${req.method} ${new URL(req.url).pathname} ${res.status}`);
      if (!req.url.endsWith('/graphql') || res.status !== 200) return res;
      const j = JSON.parse(new TextDecoder().decode(res.body));
      const target = j?.data?.repository?.t?.target;
      if (target && 'd' in target) target.d = null;
      return { ...res, body: new TextEncoder().encode(JSON.stringify(j)) };
    },
  };
}

describe('a search without type, cold, on the GitHub API store', () => {
  it('4 requests, the hits of both declared types; a stray undeclared folder is never read', async () => {
    await seeded();
    const meter = newMeter();
    const docs = new DocumentStore(apiStore(fx.em, fx.repo, { transport: meteredTransport(meter) }));
    const r = await docs.search('shared', { namespace: 'github', limit: 10 });
    expect(new Set(r.hits.map((h) => h.type))).toEqual(new Set(['repo', 'issue']));
    expect(r.total).toBe(5);
    expect(meter.requests).toBe(4);
    // The same search with its type costs the same rounds.
    const typed = newMeter();
    const one = new DocumentStore(apiStore(fx.em, fx.repo, { transport: meteredTransport(typed) }));
    await one.search('shared', { namespace: 'github', type: 'repo', limit: 10 });
    expect(typed.requests).toBe(meter.requests);
  });

  it('the manifests did not come with the tip: read after the declaration (one request more), same hits', async () => {
    await seeded();
    const cold = new DocumentStore(apiStore(fx.em, fx.repo));
    const expected = await cold.search('shared', { namespace: 'github', limit: 10 });
    const sent: string[] = [];
    const docs = new DocumentStore(apiStore(fx.em, fx.repo, { transport: withoutChildren(sent) }));
    const r = await docs.search('shared', { namespace: 'github', limit: 10 });
    expect(r.hits).toEqual(expected.hits);
    expect(r.total).toBe(5);
    expect(sent.length, JSON.stringify(sent)).toBe(5);
  });
});
