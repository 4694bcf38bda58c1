/**
 * `docdb view` serving, in its own process as a user runs it (src/cli/main.ts through tsx): it prints the
 * link, the page it serves carries the API URL it was given, Ctrl-C stops it cleanly (exit 0, the port
 * closed); `--demo` serves the viewer on an emulator holding the demo section. In Chromium: a shared
 * link `/?repo=…` opens the viewer on its own query, and no other page can frame the viewer (headers). And
 * the static server it uses keeps every request inside the site's directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StaticServer, startStaticServer } from '../../src/cli/static-server.js';
import { launchChromium } from '../browser/harness.js';
import { settled } from '../viewer/viewer-page.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/tsx/dist/loader.mjs');
const MAIN = resolve(ROOT, 'src/cli/main.ts');

interface Running {
  child: ChildProcess;
  /** The one JSON line `--json` prints once it listens. */
  report: Record<string, unknown>;
  stderr: () => string;
}

/** Start `docdb view …` and wait until it listens: its `--json` report line, or its text up to the Ctrl-C hint. */
async function startView(
  args: string[],
  options: { json: boolean } = { json: true },
): Promise<Running & { text: string }> {
  const argv = ['--import', TSX, MAIN, 'view', ...args, ...(options.json ? ['--json'] : [])];
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const listening = () => (options.json ? out.includes('\n') : out.includes('press Ctrl-C to stop\n'));
  await new Promise<void>((done, fail) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (listening()) done();
    });
    child.once('exit', (code) => fail(new Error(`docdb view exited (${code}) before listening: ${out}${err}`)));
  });
  const report = options.json ? (JSON.parse(out.slice(0, out.indexOf('\n'))) as Record<string, unknown>) : {};
  return { child, report, text: out, stderr: () => err };
}

/** Ctrl-C, and how it ended. */
function interrupt(run: Running): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    run.child.once('exit', (code, signal) => done({ code, signal })),
  );
  run.child.kill('SIGINT');
  return ended;
}

/** A raw GET (fetch would normalise `..` and escapes away before they reach the server). */
function rawGet(base: string, path: string): Promise<{ status: number; location?: string | undefined; body: string }> {
  const url = new URL(base);
  return new Promise((done, fail) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('docdb view, served', () => {
  it('prints the link; the page reads the --api-url given; Ctrl-C stops it and frees the port', async () => {
    const run = await startView(['--api-url', 'http://127.0.0.1:9/', '--repo', 'octo/data']);
    try {
      expect(run.report).toMatchObject({ apiUrl: 'http://127.0.0.1:9', page: 'built from src/viewer' });
      const url = String(run.report.url);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/viewer\/\?repo=octo\/data$/);
      const page = await fetch(url);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('<meta name="docdb-api-url" content="http://127.0.0.1:9" />');
      // Every answer forbids framing by header (a meta policy cannot), with the page's own policy otherwise.
      const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1];
      expect(meta).toContain('connect-src http://127.0.0.1:9;');
      for (const at of [url, new URL('viewer.js', url), String(run.report.site), new URL('/no/such/file', url)]) {
        const r = await fetch(at, { redirect: 'manual' });
        const sent = [r.headers.get('content-security-policy'), r.headers.get('x-frame-options')];
        expect(sent, String(at)).toEqual([`${meta}; frame-ancestors 'none'`, 'DENY']);
      }
      const js = await fetch(new URL('viewer.js', url));
      expect([js.status, js.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
      expect(await (await fetch(String(run.report.site))).text()).toContain('url=viewer/?repo=octo/data');
    } finally {
      expect(await interrupt(run)).toEqual({ code: 0, signal: null });
    }
    expect(run.stderr()).toBe(''); // --json: nothing but the report line, no error and no stack
    await expect(fetch(String(run.report.site))).rejects.toThrow();
  });

  it('in a terminal: where it serves, the API, the link to open; "viewer stopped" after Ctrl-C', async () => {
    const run = await startView(['--repo', 'octo/data', '--section', 'inventory'], { json: false });
    const lines = run.text.trim().split('\n');
    expect(lines[0]).toMatch(/^docdb viewer \(built from src\/viewer\) served on http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(lines.slice(1)).toEqual([
      'API: https://api.github.com',
      expect.stringMatching(/^open: http:\/\/127\.0\.0\.1:\d+\/viewer\/\?repo=octo\/data&section=inventory$/),
      'press Ctrl-C to stop',
    ]);
    const open = (lines[2] as string).slice('open: '.length);
    expect((await fetch(open)).status).toBe(200);
    expect(await interrupt(run)).toEqual({ code: 0, signal: null });
    expect(run.stderr()).toBe('viewer stopped\n');
  });

  it('--demo: the viewer on the emulator, whose section the page can read anonymously', async () => {
    const run = await startView(['--demo']);
    try {
      const { url, apiUrl, demo } = run.report as { url: string; apiUrl: string; demo: Record<string, string> };
      expect(url).toMatch(/\/viewer\/\?repo=octo-org\/widgets$/);
      expect(demo).toMatchObject({ repo: 'octo-org/widgets', ref: 'refs/docdb/documents' });
      expect(await (await fetch(url)).text()).toContain(`<meta name="docdb-api-url" content="${apiUrl}" />`);
      // What the page's first read is: the section's ref, anonymously, from another origin (CORS).
      const ref = await fetch(`${apiUrl}/repos/octo-org/widgets/git/ref/docdb/documents`, {
        headers: { Origin: new URL(url).origin },
      });
      expect(ref.status).toBe(200);
      expect(ref.headers.get('access-control-allow-origin')).toBeTruthy();
      expect(((await ref.json()) as { object: { sha: string } }).object.sha).toBe(demo.version);
    } finally {
      expect(await interrupt(run)).toEqual({ code: 0, signal: null });
    }
    // The emulator stopped with it.
    await expect(fetch(String(run.report.apiUrl))).rejects.toThrow();
  });
});

describe('docdb view --demo in Chromium', () => {
  let browser: Browser;
  let run: (Running & { text: string }) | undefined;
  let plain: StaticServer | undefined;
  let dir: string;
  beforeAll(async () => {
    [browser, run, dir] = await Promise.all([
      launchChromium(),
      startView(['--demo']),
      mkdtemp(join(tmpdir(), 'docdb-frame-')),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await plain?.close();
    if (run) expect(await interrupt(run)).toEqual({ code: 0, signal: null });
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("a shared link /?repo=… opens the viewer on that query, byte for byte, not the site's own", async () => {
    const site = String(run?.report.site);
    const query = '?repo=octo-org/widgets&view=table&ns=github&type=repo&sort=-data.stars&q=a%2Fb%20c+d';
    const page = await browser.newPage();
    try {
      await page.goto(`${site}${query}`);
      await page.waitForURL((u) => u.pathname === '/viewer/');
      expect(new URL(page.url()).search).toBe(query);
      expect(await settled(page)).toBe('ready');
      expect(await page.inputValue('input[type="search"]')).toBe('a/b c d');
    } finally {
      await page.close();
    }
  });

  it('no page can frame the viewer: the headers forbid it; the same page from a host that sends none can be', async () => {
    const url = String(run?.report.url);
    // The control: the page docdb view serves, byte for byte, from a server without the headers (as Pages).
    await mkdir(join(dir, 'viewer'));
    await writeFile(join(dir, 'viewer/index.html'), await (await fetch(url)).text());
    plain = await startStaticServer({ root: dir });
    const page = await browser.newPage();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    try {
      await page.setContent(
        `<iframe id="served" src="${url}"></iframe><iframe id="plain" src="${plain.url}/viewer/"></iframe>`,
      );
      const apiIn = async (id: string) => {
        const frame = await (await page.$(`#${id}`))?.contentFrame();
        return frame?.evaluate(
          () => document.querySelector('meta[name="docdb-api-url"]')?.getAttribute('content') ?? null,
        );
      };
      expect(await apiIn('plain')).toBe(run?.report.apiUrl);
      expect(await apiIn('served')).toBe(null);
      // The framed page was fetched and refused: none of its code was asked for.
      expect(asked).toContain(url);
      expect(asked.filter((u) => u.startsWith(String(run?.report.site)) && u.endsWith('.js'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('the static server keeps to its directory', () => {
  let dir: string;
  let site: StaticServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docdb-static-'));
    await mkdir(join(dir, 'site/viewer'), { recursive: true });
    await mkdir(join(dir, 'site/evil.example'), { recursive: true });
    await mkdir(join(dir, 'site/\\evil.example'), { recursive: true });
    await writeFile(join(dir, 'site/viewer/index.html'), 'the viewer');
    await writeFile(join(dir, 'secret.txt'), 'outside the site');
    site = await startStaticServer({ root: join(dir, 'site') });
  });
  afterAll(async () => {
    await site?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    '/../secret.txt',
    '/viewer/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/viewer/..%2F..%2Fsecret.txt',
    '/%2E%2E%2Fsecret.txt',
  ])('GET %s does not leave the site', async (path) => {
    const r = await rawGet(site.url, path);
    expect(r.body).not.toContain('outside the site');
    expect([403, 404]).toContain(r.status);
  });

  it('a path that does not decode is 400, and the server goes on serving', async () => {
    expect((await rawGet(site.url, '/%E0%A4%A')).status).toBe(400);
    expect((await rawGet(site.url, '/viewer/%')).status).toBe(400);
    expect((await rawGet(site.url, '/viewer/index.html%00.txt')).status).toBe(400);
    expect(await rawGet(site.url, '/viewer/')).toMatchObject({ status: 200, body: 'the viewer' });
  });

  it('a directory without its slash is redirected on this site, keeping the query byte for byte', async () => {
    expect(await rawGet(site.url, '/viewer?repo=o/r')).toMatchObject({ status: 301, location: '/viewer/?repo=o/r' });
    const query = '?repo=o/r&q=a%2Fb%20c+d&where=data.stars%3E%3D10&x=%E2%9C%93&y=//evil.example&z=%0D%0A&&=';
    expect(await rawGet(site.url, `/viewer${query}`)).toMatchObject({ status: 301, location: `/viewer/${query}` });
    // `//evil.example/` (or `/\evil.example/`, which browsers read the same) would send the browser to another host.
    for (const path of ['/%2Fevil.example', '//evil.example', '///evil.example?a=b']) {
      const r = await rawGet(site.url, path);
      expect([r.status, r.location], path).toEqual([301, `/evil.example/${path.includes('?') ? '?a=b' : ''}`]);
    }
    expect(await rawGet(site.url, '/%5Cevil.example')).toMatchObject({ status: 301, location: '/%5Cevil.example/' });
  });
});
