/**
 * `docdb view`: serve the viewer (issue 29, docs/viewer.md "Hosting") on loopback until Ctrl-C, or write
 * it as a static site with `--out DIR` (the GitHub Pages workflow); `--demo` starts the emulator with the
 * demo world and a demo section worth looking at, and serves the viewer on it.
 *
 * The API origin is fixed in the page (`<meta name="docdb-api-url">`, from `--api-url`), never taken
 * from the page's URL: a link that could name it could send a visitor's token anywhere.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EmulatorHandle } from '../../emulator/index.js';
import type { CliCommand } from '../command.js';
import { type CliIo, EXIT, UsageError } from '../io.js';
import { type StaticServer, startStaticServer } from '../static-server.js';
import { type ViewOptions, viewOptions } from '../view-options.js';
import { siteHeaders, type ViewerPage, viewerPage, writeSite } from '../viewer-site.js';

/** What the command prints (one JSON line with --json). */
interface ViewReport {
  /** The link to open: the viewer, on the named (or demo) repository's section when there is one. */
  url: string;
  site: string;
  apiUrl: string;
  page: ViewerPage['source'];
  demo?: { repo: string; ref: string; version: string; tokens: Record<string, string> };
}

/** The emulator with the demo world and the demo section (`--demo`). */
async function startDemo(): Promise<{ em: EmulatorHandle; demo: NonNullable<ViewReport['demo']> }> {
  const [{ startEmulator, DEMO_SEED }, { seedDemoSection, DEMO_SECTION }] = await Promise.all([
    import('../../emulator/index.js'),
    import('../demo-section.js'),
  ]);
  const em = await startEmulator({ seed: DEMO_SEED });
  try {
    const version = await seedDemoSection(em.state);
    const tokens = { ghp_demo_read: 'read-only, 5,000 requests an hour' };
    return { em, demo: { repo: DEMO_SECTION.repo, ref: DEMO_SECTION.ref, version, tokens } };
  } catch (e) {
    await em.stop();
    throw e;
  }
}

/** Resolve on Ctrl-C (SIGINT) or SIGTERM, once. */
function interrupted(): Promise<void> {
  return new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function printServing(report: ViewReport, say: (t: string) => void): void {
  say(`docdb viewer (${report.page}) served on ${report.site}\n`);
  if (report.demo) {
    say(
      `API: ${report.apiUrl} (the demo emulator: ${report.demo.repo}, ${report.demo.ref} at ${report.demo.version})\n`,
    );
    say('anonymous visitors get 60 requests an hour, as on github.com; type ghp_demo_read into the page for 5,000\n');
  } else say(`API: ${report.apiUrl}\n`);
  say(`open: ${report.url}\n`);
  say('press Ctrl-C to stop\n');
}

/** A port or interface the server cannot listen on, said with the flag to change (other errors as they are). */
function listenProblem(e: unknown, options: ViewOptions): unknown {
  const code = (e as { code?: string }).code;
  if (code === 'EADDRINUSE') {
    return new UsageError(
      `--port ${options.port} is in use on ${options.host}: choose another, or --port 0 for a free one`,
      '--port',
    );
  }
  if (code === 'EACCES') {
    return new UsageError(
      `--port ${options.port} needs privileges on this machine: choose one above 1023, or 0 for a free one`,
      '--port',
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new UsageError(`--host ${options.host} is not an address of this machine (default 127.0.0.1)`, '--host');
  }
  return e;
}

/** Serve the site from a temporary directory until interrupted; everything started is stopped again. */
async function serve(options: ViewOptions, page: ViewerPage, io: CliIo, json: boolean): Promise<void> {
  const demo = options.demo ? await startDemo() : undefined;
  const siteDir = await mkdtemp(join(tmpdir(), 'docdb-view-site-'));
  let server: StaticServer | undefined;
  try {
    const apiUrl = demo?.em.url ?? options.apiUrl;
    const open = demo ? { repo: demo.demo.repo } : options;
    const target = await writeSite(siteDir, page, { apiUrl, repo: open.repo, section: options.section });
    // The page's own policy, now also as a header, with the one rule a header alone can carry: no framing.
    const headers = siteHeaders(await readFile(join(siteDir, 'viewer/index.html'), 'utf8'));
    server = await startStaticServer({ root: siteDir, host: options.host, port: options.port, headers }).catch((e) => {
      throw listenProblem(e, options);
    });
    const report: ViewReport = { url: `${server.url}/${target}`, site: `${server.url}/`, apiUrl, page: page.source };
    if (demo) report.demo = demo.demo;
    if (json) io.stdout(`${JSON.stringify(report)}\n`);
    else printServing(report, io.stdout);
    await interrupted();
  } finally {
    await server?.close();
    await demo?.em.stop();
    await rm(siteDir, { recursive: true, force: true });
  }
  if (!json) io.stderr('viewer stopped\n');
}

/**
 * `--out` is a new or empty directory unless --force: the site replaces the `index.html` and `viewer/` it
 * finds there, so `--out .` in a repository must not do that silently.
 */
async function checkOut(out: string, force: boolean): Promise<void> {
  const entries = await readdir(out).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    if (e.code === 'ENOTDIR') throw new UsageError(`--out ${out} is a file, not a directory`, '--out');
    throw e;
  });
  if (entries.length === 0 || force) return;
  const shown = entries.sort().slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
  throw new UsageError(
    `--out ${out} is not empty (${shown}); nothing was written: name a new or empty directory, or pass --force to write the site there (its index.html and viewer/ are replaced, the rest kept)`,
    '--out',
  );
}

export const command: CliCommand = {
  name: 'view',
  summary: 'serve the viewer (browse, diff and chart a section) locally, or write it as a static site',
  flags: {
    port: { type: 'string', short: 'p', description: 'port (default 0: a free port; the URL is printed)' },
    host: { type: 'string', description: 'interface to bind (default 127.0.0.1, loopback only)' },
    'api-url': {
      type: 'string',
      description: 'the GitHub API the page reads (default https://api.github.com; http only on loopback)',
    },
    repo: { type: 'string', description: 'owner/name: the printed link (and --out site) opens its section' },
    section: { type: 'string', description: 'the section the link opens (default documents)' },
    demo: { type: 'boolean', description: 'start the emulator with a demo section and serve the viewer on it' },
    out: { type: 'string', description: 'write the static site into DIR (for GitHub Pages) instead of serving' },
    force: { type: 'boolean', description: 'with --out: write into a directory that is not empty' },
  },
  usage: `usage: docdb view [--port N] [--host 127.0.0.1] [--api-url URL] [--repo owner/name] [--section NAME] [--json]
       docdb view --demo [--port N]
       docdb view --out DIR [--force] [--api-url URL] [--repo owner/name] [--section NAME]

Serve the docdb viewer — a static page that browses, filters, diffs and charts a section in the
browser, reading GitHub's API directly — on loopback until interrupted (Ctrl-C), and print the link
to open. The page reads the API named by --api-url, fixed in the page: never one a link names.

--demo starts the GitHub API emulator with the demo world, writes a demo section into
octo-org/widgets (a few thousand indexed repositories, weather stations whose temperature moves in
every commit, 41 daily commits; data files on main) and opens the viewer on it. No token, no
network.

--out DIR writes the site instead (DIR/index.html opens DIR/viewer/ on --repo's section, or on
the query of the link it was opened with): the GitHub Pages workflow,
examples/workflows/docdb-viewer-pages.yml, publishes it. Every link in it is relative, so it
works under a sub-path such as https://owner.github.io/repo/. DIR must be new or empty; --force
writes into one that is not (its index.html and viewer/ replaced, the rest kept).

Example:
  docdb view --demo
  docdb view --repo octo-org/data --section documents
  docdb view --out _site --api-url "$GITHUB_API_URL" --repo "$GITHUB_REPOSITORY"`,
  async run({ values, io, json }) {
    const options = await viewOptions(values);
    const page = await viewerPage();
    try {
      if (options.out !== undefined) {
        const out = resolve(io.cwd, options.out);
        await checkOut(out, options.force);
        const target = await writeSite(out, page, options);
        const report = { out, open: target, apiUrl: options.apiUrl, page: page.source };
        io.stdout(
          json ? `${JSON.stringify(report)}\n` : `wrote the viewer (${page.source}) to ${out}: open ${target}\n`,
        );
        return EXIT.ok;
      }
      await serve(options, page, io, json);
      return EXIT.ok;
    } finally {
      await page.dispose();
    }
  },
};
