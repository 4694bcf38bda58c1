/**
 * The demo section `docdb view --demo` opens (issue 29 item 10): a section worth looking at, written by
 * the library itself (DocumentStore on a MemoryRefStore that shares the emulator repository's object
 * database), so every object is a real git object with a real SHA and the viewer reads it through the
 * emulator's API exactly as it would read a section on GitHub.
 *
 * What is in it: an indexed type (`github/repo`, a few thousand documents, three indexed fields) whose
 * stars move a little in every commit (the type charts), weather stations whose temperature moves in
 * every commit (the document charts: one version per commit), a handful of releases and a settings
 * document; a history of a few dozen commits, one a day, some adding, changing and removing documents
 * (the section diff). Next to it, on the repository's main branch, plain data files (`data/*.json`,
 * `.jsonl`, `.csv`) for the viewer's file view. Deterministic: a seeded generator and an injected clock,
 * so the SHAs are the same on every run.
 */

import { appendAll } from '../core/arrays.js';
import { seededRandom } from '../core/seeded-random.js';
import { type DocumentInput, type DocumentOp, DocumentStore, type TypeIndex } from '../document/index.js';
import type { EmulatorState } from '../emulator/index.js';
import { MemoryRefStore } from '../stores/memory/index.js';

/** The repository, section and shape of the demo section (the test and the screenshots read them). */
export const DEMO_SECTION = {
  repo: 'octo-org/widgets',
  ref: 'refs/docdb/documents',
  /** Documents of the indexed type. */
  repos: 3000,
  stations: 12,
  /** Commits after the first one. */
  updates: 40,
  index: { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars', 'data.open_issues'] },
  /** The searchable fields of the indexed type (docs/search.md): the viewer's search box has words to find. */
  search: { namespace: 'github', type: 'repo', fields: ['id', 'data.description'] },
  /** The first commit's time; every next commit is one day later. */
  start: Date.UTC(2026, 0, 1, 6, 0, 0),
  /** Plain data files committed on this branch (the file view: `ref=refs/heads/main&path=…`). */
  filesRef: 'refs/heads/main',
  files: ['data/stations.csv', 'data/widgets.json', 'data/readings.jsonl'],
} as const;

const LANGUAGES = ['TypeScript', 'Go', 'Rust', 'Python', 'Java', 'C', 'Ruby', 'Kotlin', 'Swift', 'Haskell'];
const CITIES = [
  'Oslo',
  'Lagos',
  'Lima',
  'Perth',
  'Quito',
  'Tokyo',
  'Cairo',
  'Delhi',
  'Dakar',
  'Hanoi',
  'Sofia',
  'Reno',
];
const DAY = 24 * 60 * 60 * 1000;

interface RepoData {
  language: string;
  stars: number;
  open_issues: number;
  archived: boolean;
  description: string;
}

const repoId = (i: number) => `octo-org/widget-${String(i).padStart(4, '0')}`;
const repoDoc = (id: string, data: RepoData): DocumentInput => ({ namespace: 'github', type: 'repo', id, data });

function firstRepos(rand: () => number): Map<string, RepoData> {
  const repos = new Map<string, RepoData>();
  for (let i = 0; i < DEMO_SECTION.repos; i++) {
    const language = LANGUAGES[Math.floor(rand() * LANGUAGES.length)] as string;
    repos.set(repoId(i), {
      language,
      // Heavy-tailed, as stars are: most repositories have a few, some have thousands.
      stars: Math.floor(1 / (0.0004 + rand() * rand())),
      open_issues: Math.floor(rand() * 40),
      archived: rand() < 0.05,
      description: `Widget ${i}: a ${language} widget for ${CITIES[i % CITIES.length]}`,
    });
  }
  return repos;
}

function station(city: string, day: number, rand: () => number) {
  const base = 8 + (CITIES.indexOf(city) % 6) * 4;
  return {
    namespace: 'weather',
    type: 'station',
    id: city.toLowerCase(),
    data: {
      city,
      temperature_c: Math.round((base + 6 * Math.sin(day / 5) + (rand() - 0.5) * 4) * 10) / 10,
      humidity: Math.round(40 + rand() * 50),
      reading: { day: day + 1, sensor: { ok: rand() > 0.1 } },
    },
  } satisfies DocumentInput;
}

/** One day's changes: every station moves, a few dozen repositories gain stars, some come and go. */
function dayOps(day: number, repos: Map<string, RepoData>, rand: () => number): DocumentOp[] {
  const ops: DocumentOp[] = CITIES.slice(0, DEMO_SECTION.stations).map((c) => ({
    op: 'put',
    document: station(c, day, rand),
  }));
  const ids = [...repos.keys()];
  const picked = new Set<string>();
  while (picked.size < 41) picked.add(ids[Math.floor(rand() * ids.length)] as string);
  const [removed, ...moved] = [...picked] as [string, ...string[]];
  for (const id of moved) {
    const data = repos.get(id) as RepoData;
    const next = { ...data, stars: data.stars + 1 + Math.floor(rand() * 25), open_issues: Math.floor(rand() * 40) };
    repos.set(id, next);
    ops.push({ op: 'put', document: repoDoc(id, next) });
  }
  if (day % 3 === 0) {
    const id = repoId(DEMO_SECTION.repos + day);
    const data: RepoData = { language: 'TypeScript', stars: 1, open_issues: 0, archived: false, description: 'New' };
    repos.set(id, data);
    ops.push({ op: 'put', document: repoDoc(id, data) });
  }
  if (day % 7 === 0) {
    repos.delete(removed);
    ops.push({ op: 'delete', identity: { namespace: 'github', doc_type: 'repo', id: removed } });
  }
  if (day % 10 === 0) {
    const tag = `v1.${day / 10}.0`;
    ops.push({
      op: 'put',
      document: { namespace: 'github', type: 'release', id: `octo-org/widgets@${tag}`, data: { tag, day } },
    });
  }
  return ops;
}

/** Plain data files on the main branch, from the section's last day (what a "flat data" repository holds). */
function dataFiles(repos: Map<string, RepoData>, rand: () => number): Record<string, string> {
  const stations = CITIES.slice(0, DEMO_SECTION.stations).map((c) => station(c, DEMO_SECTION.updates, rand).data);
  const csv = ['city,temperature_c,humidity', ...stations.map((s) => `${s.city},${s.temperature_c},${s.humidity}`)];
  const widgets = [...repos].slice(0, 25).map(([id, d]) => ({ id, language: d.language, stars: d.stars }));
  const readings = stations.map((s, i) =>
    JSON.stringify({ at: new Date(DEMO_SECTION.start + i * 3_600_000).toISOString(), ...s }),
  );
  const [csvPath, jsonPath, jsonlPath] = DEMO_SECTION.files;
  return {
    [csvPath]: `${csv.join('\n')}\n`,
    [jsonPath]: `${JSON.stringify(widgets, null, 2)}\n`,
    [jsonlPath]: `${readings.join('\n')}\n`,
  };
}

/**
 * Write the demo section into the emulator's `octo-org/widgets` (the demo seed's public repository)
 * and return its tip. Takes a second or two: no HTTP, the library writes straight into the repository's
 * object database.
 *
 * @example
 * const em = await startEmulator({ seed: DEMO_SEED });
 * const tip = await seedDemoSection(em.state);
 */
export async function seedDemoSection(state: EmulatorState): Promise<string> {
  const record = state.repo(DEMO_SECTION.repo);
  let commits = 0;
  const store = new MemoryRefStore({
    db: record.db,
    ref: DEMO_SECTION.ref,
    author: { name: 'docdb demo', email: 'demo@users.noreply.github.com' },
    now: () => DEMO_SECTION.start + commits * DAY,
  });
  const docs = new DocumentStore(store);
  const rand = seededRandom(29);
  const repos = firstRepos(rand);
  const first: DocumentInput[] = [...repos].map(([id, data]) => repoDoc(id, data));
  appendAll(
    first,
    CITIES.slice(0, DEMO_SECTION.stations).map((c) => station(c, 0, rand)),
  );
  first.push({ namespace: 'app', type: 'settings', id: 'viewer', data: { theme: 'auto', pageSize: 100 } });
  const index: TypeIndex = { ...DEMO_SECTION.index, fields: [...DEMO_SECTION.index.fields] };
  const search = { ...DEMO_SECTION.search, fields: [...DEMO_SECTION.search.fields] };
  await docs.putMany(first, { indexes: [index], search: [search], message: 'Import the widgets catalogue' });
  for (let day = 1; day <= DEMO_SECTION.updates; day++) {
    commits = day;
    await docs.commit(dayOps(day, repos, rand), { message: `Daily refresh, day ${day}` });
  }
  // The ref moved in the object database directly: record the push as a write through the API would.
  state.touch(record);
  state.commitFiles(DEMO_SECTION.repo, {
    branch: DEMO_SECTION.filesRef,
    files: dataFiles(repos, rand),
    message: 'Publish the daily data files',
    date: new Date(DEMO_SECTION.start + DEMO_SECTION.updates * DAY).toISOString(),
  });
  return (await docs.head()) as string;
}
