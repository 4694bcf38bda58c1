/**
 * `docdb init [--dir .] [--schedule CRON] [--sources repos,issues,…] [--force]`: write a commented
 * projection spec (`.github/docdb.yml`) and the workflow that runs it (`.github/workflows/docdb.yml`).
 * Flags with defaults, no prompt (CI has no terminal); existing files are kept unless --force.
 */
import { lstat, mkdir, readlink, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { str } from '../args.js';
import type { CliCommand } from '../command.js';
import { githubRepository } from '../github-remote.js';
import {
  DEFAULT_INIT_SOURCES,
  DEFAULT_SCHEDULE,
  INIT_SOURCES,
  type InitSource,
  initSpec,
  initWorkflow,
} from '../init-templates.js';
import { EXIT, UsageError } from '../io.js';

const SPEC = '.github/docdb.yml';
const WORKFLOW = '.github/workflows/docdb.yml';
const menu = Object.entries(INIT_SOURCES)
  .map(([name, s], i) => `  ${i + 1}. ${name.padEnd(9)} ${s.about}`)
  .join('\n');

export const command: CliCommand = {
  name: 'init',
  summary: 'write a commented .github/docdb.yml and the workflow that runs it',
  usage: `usage: docdb init [--dir DIR] [--schedule CRON] [--sources LIST] [--force] [--json]

Writes DIR/${SPEC} (a projection spec, one commented projection per source) and
DIR/${WORKFLOW} (runs it on a schedule and by hand). A file or symlink already at either
path is left alone and nothing is written, unless --force (which replaces it: a symlink by a
plain file, never written through). A symlink at .github or .github/workflows is refused even
then: GitHub follows no link there. Then check the spec without writing anything (init prints
this line with the repository filled in from $GITHUB_REPOSITORY or the github.com "origin" remote of DIR):
  npx docdb project --repo OWNER/NAME --mode dry-run

sources (--sources, comma-separated names or numbers; default ${DEFAULT_INIT_SOURCES.join(',')}):
${menu}

Example:
  docdb init --sources repos,releases --schedule "0 6 * * 1"`,
  flags: {
    dir: { type: 'string', description: 'the repository to write into (default: the current directory)' },
    schedule: { type: 'string', description: `cron schedule of the workflow, UTC (default "${DEFAULT_SCHEDULE}")` },
    sources: { type: 'string', description: `what to project: ${Object.keys(INIT_SOURCES).join(', ')}` },
    force: { type: 'boolean', description: 'replace existing files (a symlink is replaced, not written through)' },
  },
  async run({ values, io, json }) {
    const dir = resolve(io.cwd, str(values, 'dir') ?? '.');
    const schedule = checkSchedule(str(values, 'schedule') ?? DEFAULT_SCHEDULE);
    const sources = parseSources(str(values, 'sources'));
    const files = { [SPEC]: initSpec(sources), [WORKFLOW]: initWorkflow(schedule, sources) };
    await writeNewFiles(dir, files, values.force === true);
    const written = Object.keys(files).map((f) => relative(io.cwd, join(dir, f)) || f);
    if (json) {
      io.stdout(`${JSON.stringify({ written, sources, schedule })}\n`);
      return EXIT.ok;
    }
    io.stdout(`wrote ${written.join(' and ')} (sources: ${sources.join(', ')}; schedule "${schedule}" UTC)\n`);
    // A line to type as printed: `project` needs the repository (--repo), so name it when it can be known.
    const repo = (await githubRepository(dir, io.env)) ?? 'OWNER/NAME';
    io.stdout(
      `next: npx docdb project --spec ${written[0]} --repo ${repo} --mode dry-run   # reads the sources, writes nothing\n`,
    );
    io.stdout('then commit both files; the workflow runs on the schedule, or by hand from the Actions tab\n');
    return EXIT.ok;
  },
};

interface Occupant {
  kind: 'file' | 'directory' | 'symlink';
  /** Said after the path: `is a symlink (to ../x)`. */
  said: string;
}

/** What is at a path, seen by lstat: a symlink as itself, even one that points nowhere. */
async function occupant(path: string): Promise<Occupant | undefined> {
  const st = await lstat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (st === undefined) return undefined;
  if (st.isSymbolicLink()) return { kind: 'symlink', said: `is a symlink (to ${await readlink(path)})` };
  return st.isDirectory() ? { kind: 'directory', said: 'is a directory' } : { kind: 'file', said: 'is a file' };
}

/** The directories between DIR and a file, outermost first: `.github`, `.github/workflows`. */
function directoriesOnTheWay(file: string): string[] {
  const parts = file.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/**
 * What stops the write: with `force` only what it cannot cure. A file or symlink at a file's path (a
 * dangling link too: `existsSync` follows it and says "absent") waits for `force`; a directory there, or a
 * symlink or file where a directory goes (`.github`), stops it even then — GitHub reads `.github/` from the
 * repository's tree and follows no link, and init writes only inside DIR.
 */
async function obstacles(dir: string, files: string[], force: boolean): Promise<{ found: string[]; cured: boolean }> {
  const found: string[] = [];
  let cured = true;
  for (const on of new Set(files.flatMap(directoriesOnTheWay))) {
    const what = await occupant(join(dir, on));
    if (what !== undefined && what.kind !== 'directory') {
      found.push(`${on} ${what.said}`);
      cured = false;
    }
  }
  for (const file of files) {
    const what = await occupant(join(dir, file));
    if (what === undefined || (force && what.kind !== 'directory')) continue;
    found.push(`${file} ${what.kind === 'file' ? 'already exists' : what.said}`);
    if (what.kind === 'directory') cured = false;
  }
  return { found, cured };
}

/**
 * Write every file, or none: every path is checked before anything is written ({@link obstacles}). With
 * `force` a file or symlink at a file's path is removed and the file created in its place, so a symlink is
 * replaced, never written through. Files are created with `wx` (exclusive): a symlink that appears after
 * the check fails the write instead of redirecting it.
 */
async function writeNewFiles(dir: string, files: Record<string, string>, force: boolean): Promise<void> {
  const { found, cured } = await obstacles(dir, Object.keys(files), force);
  if (found.length > 0) {
    const cure = cured
      ? '--force replaces them, a symlink by a plain file'
      : 'move it away first: a directory is never replaced, and .github/ must be a real directory (GitHub follows no link)';
    throw new UsageError(`in ${dir}, ${found.join(' and ')}; nothing was written (${cure})`, '--force');
  }
  for (const file of Object.keys(files)) await mkdir(dirname(join(dir, file)), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    if (force) await rm(join(dir, file), { force: true });
    await writeFile(join(dir, file), text, { flag: 'wx' });
  }
}

/** Names or menu numbers, comma-separated; each once, in menu order. */
function parseSources(given: string | undefined): InitSource[] {
  if (given === undefined) return [...DEFAULT_INIT_SOURCES];
  const names = Object.keys(INIT_SOURCES) as InitSource[];
  const picked = new Set<InitSource>();
  for (const raw of given.split(',').map((s) => s.trim())) {
    const name = /^\d+$/.test(raw) ? names[Number(raw) - 1] : names.find((n) => n === raw);
    if (!name) {
      throw new UsageError(
        `--sources: ${JSON.stringify(raw)} is not a source (allowed: ${names.map((n, i) => `${n} or ${i + 1}`).join(', ')})`,
        '--sources',
      );
    }
    picked.add(name);
  }
  return names.filter((n) => picked.has(n));
}

/**
 * Five cron fields as GitHub's `on.schedule` takes them (minute hour day month weekday; numbers, `*`,
 * ranges, steps, lists, month and day names). https://docs.github.com/actions/reference/events-that-trigger-workflows#schedule
 */
function checkSchedule(cron: string): string {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5 || !fields.every((f) => /^[0-9A-Za-z*/,-]+$/.test(f))) {
    throw new UsageError(
      `--schedule must be a cron expression of 5 fields (minute hour day month weekday, UTC), got ${JSON.stringify(cron)}`,
      '--schedule',
    );
  }
  return fields.join(' ');
}
