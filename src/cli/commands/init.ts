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
plain file, never written through). Then check the spec without writing anything (init prints
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

/** What is at a target path, seen by lstat: a symlink as itself, even one that points nowhere. */
async function occupant(path: string): Promise<string | undefined> {
  const st = await lstat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (st === undefined) return undefined;
  if (st.isSymbolicLink()) return `is a symlink (to ${await readlink(path)})`;
  return st.isDirectory() ? 'is a directory' : 'already exists';
}

/**
 * Write every file, or none: each target path is checked before anything is written. A file or a symlink
 * there (a dangling one too: `existsSync` follows it and says "absent") is refused unless `force`; with
 * `force` it is removed and the file created in its place, so a symlink is replaced, never written
 * through. Files are created with `wx` (exclusive): a symlink that appears after the check fails the write
 * instead of redirecting it.
 */
async function writeNewFiles(dir: string, files: Record<string, string>, force: boolean): Promise<void> {
  const found: [string, string][] = [];
  for (const file of Object.keys(files)) {
    const what = await occupant(join(dir, file));
    if (what !== undefined) found.push([file, what]);
  }
  const blocking = found.filter(([, what]) => !force || what === 'is a directory');
  if (blocking.length > 0) {
    const cure = blocking.some(([, what]) => what === 'is a directory')
      ? 'a directory is never replaced: remove it first'
      : '--force replaces them, a symlink by a plain file';
    throw new UsageError(
      `in ${dir}, ${blocking.map(([file, what]) => `${file} ${what}`).join(' and ')}; nothing was written (${cure})`,
      '--force',
    );
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
