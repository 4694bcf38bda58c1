/**
 * The viewer's views over the demo section (src/cli/demo-section.ts), each by its URL: what the README's
 * screenshots show (scripts/viewer-screenshots.ts) and what the accessibility test walks
 * (__tests__/viewer/a11y.test.ts), so both cover the same pages.
 */
import { DEMO_SECTION } from '../src/cli/demo-section.js';
import { DocumentStore } from '../src/document/index.js';
import type { EmulatorHandle } from '../src/emulator/index.js';
import { MemoryRefStore } from '../src/stores/memory/index.js';

export interface DemoView {
  /** The view's name (the screenshot is `docs/images/viewer-<name>.png`). */
  name: string;
  /** The viewer's query string, without the leading `?`. */
  query: string;
  /** Whether the README shows it (the plain document view is covered by the field diff's shot). */
  screenshot: boolean;
}

/** Versions the URLs name, read from the demo section as the library sees it. */
async function demoVersions(
  em: EmulatorHandle,
): Promise<{ tip: string; weekAgo: string; day21: string; day20: string }> {
  const store = new MemoryRefStore({ db: em.state.repo(DEMO_SECTION.repo).db, ref: DEMO_SECTION.ref });
  const { entries } = await new DocumentStore(store).history(
    { namespace: 'weather', doc_type: 'station', id: 'oslo' },
    { limit: 100 },
  );
  // Newest first, one entry per commit (every commit moves every station); the import is the last.
  const at = (i: number) => (entries[i] as { version: string }).version;
  const day = (d: number) => at(DEMO_SECTION.updates - d);
  return { tip: at(0), weekAgo: at(7), day21: day(21), day20: day(20) };
}

/**
 * Every view of the demo section (docs/viewer.md "Opening a section: the URL"), once the emulator holds it.
 *
 * @example
 * await seedDemoSection(em.state);
 * for (const view of await demoViews(em)) await page.goto(`${site}/viewer/?${view.query}`);
 */
export async function demoViews(em: EmulatorHandle): Promise<DemoView[]> {
  const v = await demoVersions(em);
  const repo = `repo=${DEMO_SECTION.repo}`;
  const station = 'ns=weather&type=station&id=oslo';
  const shot = (name: string, query: string, screenshot = true): DemoView => ({ name, query, screenshot });
  return [
    shot('overview', repo),
    shot('table', `${repo}&view=table&ns=github&type=repo&sort=-data.stars`),
    shot('document-plain', `${repo}&view=document&${station}`, false),
    // The document with a field diff of the last week.
    shot('document', `${repo}&view=document&${station}&from=${v.weekAgo}&to=${v.tip}`),
    // Day 21 adds a repository and removes one, and moves dozens: every kind of change.
    shot('section-diff', `${repo}&view=diff&from=${v.day20}&to=${v.day21}`),
    shot('chart', `${repo}&view=chart&${station}&field=data.temperature_c`),
    shot('chart-type', `${repo}&view=chart&ns=github&type=repo&field=data.stars&agg=sum`),
    shot('file', `${repo}&ref=${DEMO_SECTION.filesRef}&path=${DEMO_SECTION.files[0]}`),
    // The section's search box: the repositories whose description holds both words (a prefix for the last).
    shot('search', `${repo}&q=rust%20osl`, false),
  ];
}
