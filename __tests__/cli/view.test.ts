/**
 * `docdb view` (issue 29 item 10): its flags (every bad one named, with what is allowed), the static site
 * `--out` writes (the page's API URL fixed in its meta, a root page that opens the named section through a
 * relative link), and where the page comes from (lib/viewer, or a clear sentence saying what to run).
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { withApiUrl } from '../../scripts/build-browser.mjs';
import { openQuery, pageWithApiUrl, siteHeaders, viewerPage } from '../../src/cli/viewer-site.js';
import { runCli } from './run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docdb-view-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('docdb view: bad flags are usage errors naming the flag', () => {
  const cases: [string[], RegExp][] = [
    [['--port', '70000'], /--port must be a whole number from 0 to 65535.*"70000"/],
    [['--port', 'http'], /--port must be a whole number/],
    [['--api-url', 'http://api.example.com'], /--api-url must be https \(http only on loopback/],
    [['--api-url', 'not a url'], /--api-url must be a URL such as https:\/\/api.github.com/],
    [['--api-url', 'https://user:pw@api.example.com'], /--api-url must not carry credentials/],
    [['--repo', 'just-a-name'], /--repo must be owner\/name/],
    [['--section', 'a b'], /--section must be a section name/],
    [['--demo', '--api-url', 'https://x.example'], /--demo and --api-url do not go together/],
    [['--demo', '--out', 'site'], /--demo and --out do not go together/],
    [['--out', 'site', '--port', '80'], /--out and --port do not go together/],
    [['--force'], /--force goes with --out DIR: it writes the site into a directory that is not empty/],
  ];
  it.each(cases)('docdb view %j', async (args, message) => {
    const r = await runCli(['view', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('names every problem at once', async () => {
    const r = await runCli(['view', '--port', '-1', '--repo', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('2 problems with the command line');
    expect(r.stderr).toMatch(/--port[^\n]*\n[^\n]*--repo/);
  });
});

describe('docdb view cannot listen', () => {
  it('a port in use, or a host that is not this machine: a usage error naming the flag', async () => {
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const { port } = busy.address() as { port: number };
    try {
      const r = await runCli(['view', '--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--port ${port} is in use on 127.0.0.1: choose another, or --port 0 for a free one`);
    } finally {
      busy.close();
    }
    const r = await runCli(['view', '--host', '192.0.2.1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--host 192.0.2.1 is not an address of this machine');
  });
});

describe('docdb view --out DIR', () => {
  it('writes the viewer with the API URL fixed in the page, and a root page opening the section', async () => {
    const out = join(dir, 'site');
    const r = await runCli(
      [
        'view',
        '--out',
        out,
        '--api-url',
        'https://ghe.example.com/api/v3/',
        '--repo',
        'octo/data',
        '--section',
        'inventory',
        '--json',
      ],
      { cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      out,
      open: 'viewer/?repo=octo/data&section=inventory',
      apiUrl: 'https://ghe.example.com/api/v3',
    });
    const page = await readFile(join(out, 'viewer/index.html'), 'utf8');
    expect(page).toContain('<meta name="docdb-api-url" content="https://ghe.example.com/api/v3" />');
    // Assets are relative: the site works under any sub-path.
    expect(page).toMatch(/src="\.\/viewer\.js"/);
    expect(page).not.toMatch(/(src|href)="\/(?!\/)/);
    expect((await readFile(join(out, 'viewer/viewer.js'))).length).toBeGreaterThan(1000);
    const root = await readFile(join(out, 'index.html'), 'utf8');
    expect(root).toContain('content="0; url=viewer/?repo=octo/data&amp;section=inventory"');
    expect(root).toContain('<a id="open" href="viewer/?repo=octo/data&amp;section=inventory">');
    // The script that carries a shared link's own query on to the viewer (view-pages.test.ts runs it).
    expect(root).toContain('<script src="viewer/open.js"></script>');
    expect(await readFile(join(out, 'viewer/open.js'), 'utf8')).toContain('location.search');
  });

  it('without --repo the root page opens the viewer itself, on api.github.com', async () => {
    const out = join(dir, 'plain');
    expect((await runCli(['view', '--out', out])).code).toBe(0);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('<a id="open" href="viewer/">');
    expect(await readFile(join(out, 'viewer/index.html'), 'utf8')).toContain('content="https://api.github.com"');
  });
});

describe('docdb view --out DIR that holds something', () => {
  it('a directory that is not empty is refused without --force, nothing written; --force writes, the rest kept', async () => {
    const out = join(dir, 'full');
    await mkdir(out);
    await writeFile(join(out, 'index.html'), 'my own page');
    await writeFile(join(out, 'notes.txt'), 'keep me');
    const r = await runCli(['view', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `--out ${out} is not empty (index.html, notes.txt); nothing was written: name a new or empty directory, or pass --force`,
    );
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('my own page');
    await expect(readFile(join(out, 'viewer/index.html'))).rejects.toMatchObject({ code: 'ENOENT' });
    const forced = await runCli(['view', '--out', out, '--force']);
    expect([forced.code, forced.stderr]).toEqual([0, '']);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('Open the docdb viewer');
    expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it('an empty directory is used as it is; a file is refused, even with --force', async () => {
    const empty = join(dir, 'empty-out');
    await mkdir(empty);
    expect((await runCli(['view', '--out', empty])).code).toBe(0);
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    for (const args of [
      ['--out', file],
      ['--out', file, '--force'],
    ]) {
      const r = await runCli(['view', ...args]);
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(`--out ${file} is a file, not a directory`)]);
    }
    expect(await readFile(file, 'utf8')).toBe('x');
  });
});

describe('the page and its API URL', () => {
  it('pageWithApiUrl writes what build-browser.mjs withApiUrl writes (the package ships only the former)', () => {
    const html = '<head><meta name="docdb-api-url" content="https://api.github.com" /></head>';
    for (const url of ['http://127.0.0.1:8787', 'https://h.example/api/v3', 'https://x/"><script>&$1$&']) {
      expect(pageWithApiUrl(html, url)).toBe(withApiUrl(html, url));
    }
    // `$&` and `$1` are text, not replacement patterns.
    expect(pageWithApiUrl(html, 'https://x/$&')).toContain('content="https://x/$&amp;"');
  });

  it("narrows the page's Content-Security-Policy to the API origin", async () => {
    const html = await readFile('src/viewer/index.html', 'utf8');
    expect(html).toContain('connect-src https://api.github.com;');
    for (const page of [pageWithApiUrl(html, 'http://127.0.0.1:8787/x'), withApiUrl(html, 'http://127.0.0.1:8787/x')]) {
      expect(page).toContain('connect-src http://127.0.0.1:8787;');
      expect(page).not.toContain('api.github.com');
    }
  });

  it("siteHeaders: the page's own policy as a header, with frame-ancestors 'none', and X-Frame-Options", async () => {
    const page = pageWithApiUrl(await readFile('src/viewer/index.html', 'utf8'), 'http://127.0.0.1:8787/x');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(page)?.[1];
    expect(meta).toContain('connect-src http://127.0.0.1:8787;');
    expect(siteHeaders(page)).toEqual({
      'Content-Security-Policy': `${meta}; frame-ancestors 'none'`,
      'X-Frame-Options': 'DENY',
    });
    expect(() => siteHeaders('<head></head>')).toThrow(/no Content-Security-Policy <meta>/);
  });

  it('refuses a page with no API URL to set (it would read api.github.com whatever --api-url said)', () => {
    expect(() => pageWithApiUrl('<head></head>', 'http://127.0.0.1:1')).toThrow(/no <meta name="docdb-api-url"/);
  });

  it('openQuery: the section only when it is not the default', () => {
    expect(openQuery({})).toBe('');
    expect(openQuery({ repo: 'o/r', section: 'documents' })).toBe('?repo=o/r');
    expect(openQuery({ repo: 'o/r', section: 'a/b' })).toBe('?repo=o/r&section=a/b');
  });
});

describe('where the page comes from', () => {
  it('the package: lib/viewer when it is built', async () => {
    const root = join(dir, 'pkg');
    await mkdir(join(root, 'lib/viewer'), { recursive: true });
    for (const f of ['index.html', 'viewer.js', 'viewer.css']) await writeFile(join(root, 'lib/viewer', f), f);
    const page = await viewerPage(root, false);
    expect([page.dir, page.source]).toEqual([join(root, 'lib/viewer'), 'lib/viewer']);
  });

  it('neither lib/viewer nor the sources and esbuild: a sentence saying what to run', async () => {
    const root = join(dir, 'empty');
    await mkdir(root, { recursive: true });
    await expect(viewerPage(root, true)).rejects.toMatchObject({
      code: 'InvalidConfig',
      message: expect.stringMatching(/lib\/viewer\/index\.html.*missing.*run "npm ci" then "npm run build:browser"/),
    });
  });

  it('the sources: built on the fly into a directory removed afterwards', async () => {
    const page = await viewerPage();
    expect(page.source).toBe('built from src/viewer');
    expect(await readFile(join(page.dir, 'index.html'), 'utf8')).toContain('docdb-api-url');
    await page.dispose();
    await expect(readFile(join(page.dir, 'index.html'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('examples/workflows/docdb-viewer-pages.yml', () => {
  interface Step {
    id?: string;
    uses?: string;
    run?: string;
    env?: Record<string, string>;
    with?: Record<string, string>;
  }
  const file = resolve(import.meta.dirname, '../../examples/workflows/docdb-viewer-pages.yml');
  const wf = parse(readFileSync(file, 'utf8')) as {
    jobs: Record<string, { steps: Step[]; permissions?: Record<string, string>; environment?: { name: string } }>;
  };
  const steps = Object.values(wf.jobs).flatMap((j) => j.steps);

  it('its docdb view step, run as the runner would, writes the site the upload step publishes', async () => {
    const step = steps.find((s) => s.run?.includes(' view --out ')) as Step;
    const env: Record<string, string> = {
      GITHUB_API_URL: 'https://api.github.com',
      GITHUB_REPOSITORY: 'octo/data',
      ...step.env,
    };
    // The step's one command, its "$VARIABLES" expanded as bash would (each is one quoted word).
    const words = (step.run as string)
      .trim()
      .replace(/"\$(\w+)"/g, (_m, name: string) => env[name] ?? '')
      .split(/\s+/);
    expect(words.slice(0, 3)).toEqual(['node', '.docdb/bin/docdb.js', 'view']);
    const r = await runCli(words.slice(2), { cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-pages-artifact@')) as Step;
    const site = join(dir, upload.with?.path as string);
    expect(await readFile(join(site, 'index.html'), 'utf8')).toContain('url=viewer/?repo=octo/data"');
    expect(await readFile(join(site, 'viewer/index.html'), 'utf8')).toContain('content="https://api.github.com"');
  });

  it('deploys with deploy-pages from a job that alone may write Pages, in the github-pages environment', () => {
    const deploy = Object.values(wf.jobs).find((j) => j.steps.some((s) => s.uses?.startsWith('actions/deploy-pages@')));
    expect(deploy?.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    expect(deploy?.environment?.name).toBe('github-pages');
    const others = Object.values(wf.jobs).filter((j) => j !== deploy);
    expect(others.map((j) => j.permissions)).toEqual(others.map(() => undefined)); // the workflow's contents: read
  });
});
