/**
 * A section for the viewer's search tests (issue 42): two namespaces whose types declare search and one
 * type without search, seeded straight into the emulator with the library's own index and search builders
 * (table-seed.ts); and the library's answer for the same search, read in Node (the oracle).
 */
import { DocumentStore } from '../../src/document/document-store.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { rankOrder } from '../../src/viewer/search/merge.js';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { seedTypes } from './table-seed.js';

const WORDS = [
  'quantum',
  'engine',
  'garden',
  'river',
  'Crème',
  'brûlée',
  'network',
  'compiler',
  'lantern',
  'harbor',
  'meadow',
  'signal',
];

/** Words of document `i` of a type (`salt` varies the types): 3 to 7 of them, picked by a fixed hash. */
export function wordsOf(i: number, salt: number): string {
  let x = (i + 1) * 2654435761 + salt * 40503;
  const next = () => {
    x = (Math.imul(x ^ (x >>> 15), 2246822507) + 1) >>> 0;
    return x;
  };
  const n = 3 + (next() % 5);
  return Array.from({ length: n }, () => WORDS[next() % WORDS.length]).join(' ');
}

/** The repositories: 120 of them, searchable in name and description, indexed on stars. */
export const REPOS = 120;
/** The blog's posts: 60, searchable in title and body. */
export const POSTS = 60;

/**
 * A fresh repository holding the section; its name.
 *
 * @example
 * const repo = searchSection(world.em);
 */
export function searchSection(em: EmulatorHandle): string {
  const repo = freshRepo(em);
  seedTypes(em, repo, [
    {
      n: REPOS,
      namespace: 'github',
      type: 'repo',
      id: (i) => `octo/r${String(i).padStart(3, '0')}`,
      data: (i) => ({ name: `repo ${i}`, description: wordsOf(i, 1), stars: (i * 37) % 500 }),
      fields: ['data.stars'],
      search: ['data.name', 'data.description'],
    },
    {
      n: POSTS,
      namespace: 'blog',
      type: 'post',
      id: (i) => `p${i}`,
      // A long body: the snippet shows the words' neighbourhood, not the whole text.
      // Every third one ends in an unbroken run of 100 characters, which must wrap inside a phone's width.
      data: (i) => ({
        title: wordsOf(i, 2),
        body: `${'Lorem ipsum dolor sit amet. '.repeat(12)}${wordsOf(i, 3)}${i % 3 === 0 ? ` harbor_signal_${'x'.repeat(100)}` : ''}`,
      }),
      search: ['data.title', 'data.body'],
    },
    {
      n: 30,
      namespace: 'github',
      type: 'issue',
      id: (i) => `i${i}`,
      data: (i) => ({ title: `issue ${i}`, body: wordsOf(i, 4) }),
    },
  ]);
  return repo;
}

/** One hit as the tests compare them. */
export interface Found {
  type: string;
  id: string;
  score: number;
}

/**
 * Every hit of `text` the library finds in `scopes` at the section's tip, merged into one ranked list as the
 * overview shows them.
 *
 * @example
 * const expected = await librarySearch(world.em, repo, 'quantum', [{ namespace: 'github' }, { namespace: 'blog' }]);
 */
export async function librarySearch(
  em: EmulatorHandle,
  repo: string,
  text: string,
  scopes: readonly { namespace: string; type?: string }[],
): Promise<Found[]> {
  const docs = new DocumentStore(
    new MemoryRefStore({ db: em.state.repo(`${OWNER}/${repo}`).db, ref: 'refs/docdb/documents' }),
  );
  const all = [];
  for (const scope of scopes) {
    let cursor: string | undefined;
    do {
      const page = await docs.search(text, { ...scope, limit: 100, ...(cursor ? { cursor } : {}) });
      all.push(...page.hits);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  return all.sort(rankOrder).map((h) => ({ type: `${h.namespace}/${h.type}`, id: h.id, score: h.score }));
}
