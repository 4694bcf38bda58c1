/**
 * The picture of the review comment for the README and docs/review.md (issue 39): a sample review built
 * by `buildReview` from generated documents, rendered by `renderComment`, its Markdown turned into HTML by
 * `marked` (GitHub-flavoured) inside a page styled like a GitHub pull-request comment, and shot in Debian's
 * Chromium (playwright-core, as scripts/viewer-screenshots.ts does).
 *
 *   npm run screenshots:review                                  # → docs/images/review-comment.png
 *   npx tsx scripts/review-screenshot.ts --out .tmp/shots       # elsewhere (to compare before replacing)
 *
 * Needs /usr/bin/chromium (or DOCDB_CHROMIUM). No network: the page is set from a string.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { marked } from 'marked';
import { chromium } from 'playwright-core';
import { buildReview, type Review, type ReviewDocument, renderComment } from '../src/review/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.DOCDB_CHROMIUM ?? '/usr/bin/chromium';
const sha = (seed: string) => seed.repeat(40).slice(0, 40);

/** A night's run of the demo's projections: repositories' stars move, a release lands, stations report. */
function* sampleDocuments(): Generator<ReviewDocument> {
  const owners = ['octo-org', 'hubot', 'mona'];
  for (let i = 0; i < 1_180; i++) {
    const id = `${owners[i % 3]}/project-${String(i).padStart(4, '0')}`;
    const before = { name: id, stars: 100 + i, forks: 10 + (i % 7), topics: ['data'], archived: false };
    const after = {
      ...before,
      stars: before.stars + 1 + (i % 5),
      forks: i % 4 === 0 ? before.forks + 1 : before.forks,
      topics: i % 9 === 0 ? ['data', 'open-data'] : before.topics,
      archived: i === 41,
    };
    const change = i % 40 === 0 ? 'added' : i === 17 ? 'removed' : 'modified';
    yield {
      key: `github/repo/${id}.json`,
      namespace: 'github',
      type: 'repo',
      id,
      change,
      projection: 'repos',
      before: change === 'added' ? undefined : before,
      after: change === 'removed' ? undefined : after,
    };
  }
  for (const tag of ['v2.4.0', 'v2.4.1']) {
    const id = `octo-org/widgets/${tag}`;
    const after = { tag, name: `Widgets ${tag}`, prerelease: false };
    yield {
      key: `github/release/${id}.json`,
      namespace: 'github',
      type: 'release',
      id,
      change: 'added',
      projection: 'releases',
      before: undefined,
      after,
    };
  }
  for (const [i, city] of ['oslo', 'bergen', 'tromso', 'lima', 'quito'].entries()) {
    const before = { city, temperature_c: 4 + i, observed: '2026-12-01T06:00:00Z' };
    const after = { ...before, temperature_c: 3.5 + i, observed: '2026-12-02T06:00:00Z' };
    yield {
      key: `weather/station/${city}.json`,
      namespace: 'weather',
      type: 'station',
      id: city,
      change: 'modified',
      projection: 'stations',
      before,
      after,
    };
  }
}

function sampleReview(): Review {
  return buildReview({
    section: 'refs/docdb/documents',
    repository: 'octo-org/data',
    pullRequest: 128,
    headSha: sha('4f2a9c'),
    base: sha('1d83e7'),
    preview: { ref: 'refs/docdb/documents.previews/pr-128', version: sha('9b04c5') },
    viewerUrl: 'https://octo-org.github.io/data/viewer/',
    specFile: 'docdb.yml',
    projections: [
      { name: 'repos', line: 4 },
      { name: 'releases', line: 21 },
      { name: 'stations', line: 33 },
    ],
    expectations: { declared: true, violations: [] },
    documents: sampleDocuments(),
    notes: ['Computed from a dry run of the pull request’s spec and reducers; the section did not move.'],
  });
}

/** Enough of GitHub's comment styling (Primer's light theme) for the picture to read like the real thing. */
const CSS = `
  body { margin: 0; padding: 24px; background: #fff; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", "Liberation Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
  .comment { width: 860px; border: 1px solid #d1d9e0; border-radius: 6px; }
  .comment-header { display: flex; gap: 8px; align-items: center; padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0; color: #59636e; }
  .comment-header b { color: #1f2328; } .bot { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 6px; font-size: 12px; }
  .avatar { width: 20px; height: 20px; border-radius: 4px; background: #2f81f7; }
  .markdown-body { padding: 16px; }
  .markdown-body > *:first-child { margin-top: 0; }
  h3 { font-size: 1.25em; font-weight: 600; margin: 24px 0 16px; } h4 { font-size: 1em; font-weight: 600; margin: 24px 0 16px; }
  p, ul, table { margin: 0 0 16px; } ul { padding-left: 2em; }
  a { color: #0969da; text-decoration: none; }
  code { font: 85% "DejaVu Sans Mono", ui-monospace, SFMono-Regular, Menlo, monospace; padding: .2em .4em; background: rgba(129,139,152,.12); border-radius: 6px; }
  table { border-spacing: 0; border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow: auto; }
  th { font-weight: 600; } th, td { padding: 6px 13px; border: 1px solid #d1d9e0; }
  tr { background: #fff; border-top: 1px solid #d1d9e0b3; } tr:nth-child(2n) { background: #f6f8fa; }
  sub { color: #59636e; }
`;

function page(markdown: string): string {
  const body = marked.parse(markdown, { gfm: true, async: false }) as string;
  return `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head><body>
    <div class="comment"><div class="comment-header"><span class="avatar"></span><b>github-actions</b><span class="bot">bot</span> commented</div>
    <div class="markdown-body">${body}</div></div></body></html>`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = resolve(values.out ?? join(ROOT, 'docs/images'));
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the screenshot needs Debian's chromium at ${CHROMIUM}: apt-get install -y chromium, or set DOCDB_CHROMIUM`,
    );
  }
  const comment = renderComment(sampleReview());
  const profile = await mkdtemp(join(tmpdir(), 'docdb-review-shot-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
    viewport: { width: 920, height: 800 },
    colorScheme: 'light',
    // The page is a string: nothing may be fetched (the viewer link is only drawn, never followed).
    offline: true,
  });
  try {
    const tab = await context.newPage();
    await tab.setContent(page(comment), { waitUntil: 'load' });
    await mkdir(out, { recursive: true });
    const file = join(out, 'review-comment.png');
    await tab.locator('.comment').screenshot({ path: file });
    console.log(`✓ ${file} (${comment.length.toLocaleString('en-US')} characters of Markdown)`);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
