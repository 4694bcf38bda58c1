/**
 * `docdb emulator [--port N] [--seed FILE|demo] [--host H] [--secondary-limits on|off] [--data-dir DIR [--data-dir-repair]]`: serve the GitHub API emulator
 * until Ctrl-C; with --data-dir, what is written persists across restarts (src/emulator/persist/).
 */
import { resolve } from 'node:path';
import type { DataDirReplay } from '../../emulator/index.js';
import { checkUsage } from '../args.js';
import type { CliCommand } from '../command.js';
import { EXIT, UsageError } from '../io.js';
import { didYouMean } from '../suggest.js';

function int(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d{1,9}$/.test(v)) {
    throw new UsageError(`--${name} must be a non-negative whole number, got ${JSON.stringify(v)}`, `--${name}`);
  }
  return Number(v);
}

function portOf(v: unknown): number | undefined {
  const port = int('port', v);
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`, '--port');
  return port;
}

function latencyOf(v: unknown): number | { min: number; max: number } | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d+)(?:-(\d+))?$/.exec(v);
  if (!m || (m[2] !== undefined && Number(m[2]) < Number(m[1]))) {
    throw new UsageError(`--latency must be "MS" or "MIN-MAX", got ${JSON.stringify(v)}`, '--latency');
  }
  return m[2] ? { min: Number(m[1]), max: Number(m[2]) } : Number(m[1]);
}

function dataDirOf(v: unknown): string | undefined {
  if (v !== undefined && (typeof v !== 'string' || v === '')) {
    throw new UsageError('--data-dir must name a directory (created when missing)', '--data-dir');
  }
  return v;
}

function repairOf(v: unknown, dataDir: unknown): boolean {
  if (v === true && dataDir === undefined) {
    throw new UsageError(
      '--data-dir-repair repairs the journal of a --data-dir: give --data-dir DIR too',
      '--data-dir-repair',
    );
  }
  return v === true;
}

/** `data: DIR (kept across restarts)`, and what the start found in the journal when it was not a clean stop. */
function dataLine(dataDir: string, replayed: DataDirReplay): string {
  const notes = ['kept across restarts'];
  if (replayed.droppedBytes > 0) notes.push(`dropped a torn last record of ${replayed.droppedBytes} bytes`);
  if (replayed.moved) {
    const { file, bytes, offset, record } = replayed.moved;
    notes.push(
      `repaired: record ${record} at byte ${offset} was corrupt; it and what followed (${bytes} bytes) moved to ${file}`,
    );
  }
  return `data: ${dataDir} (${notes.join('; ')})\n`;
}

/** An `on|off` flag (its default when not given), with a did-you-mean for a near miss. */
function onOff(name: string, v: unknown, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (v === 'on') return true;
  if (v === 'off') return false;
  const said = typeof v === 'string' ? v : String(v);
  throw new UsageError(
    `--${name} must be on or off, got ${JSON.stringify(said)}${didYouMean(said, ['on', 'off'])}`,
    `--${name}`,
  );
}

export const command: CliCommand = {
  name: 'emulator',
  summary: 'serve a local GitHub API emulator (for tests, the demo and offline runs)',
  flags: {
    port: { type: 'string', short: 'p', description: 'port (default 0: a free port; the URL is printed)' },
    host: { type: 'string', description: 'interface to bind (default 127.0.0.1, loopback only)' },
    seed: { type: 'string', short: 's', description: 'JSON/YAML seed file, or "demo" (default: demo)' },
    'tree-truncate-limit': { type: 'string', description: 'recursive tree truncation limit (default 100000)' },
    latency: { type: 'string', description: 'added latency per request: "MS" or "MIN-MAX"' },
    'secondary-limits': {
      type: 'string',
      description: "GitHub's secondary rate limits per token: on, or off (default)",
    },
    'data-dir': {
      type: 'string',
      description: 'keep repositories, refs and objects in DIR across restarts (default: in memory only)',
    },
    'data-dir-repair': {
      type: 'boolean',
      description: 'with --data-dir: start past a corrupt journal record, moving it and what follows to a side file',
    },
  },
  usage: `usage: docdb emulator [--port N] [--host 127.0.0.1] [--seed FILE|demo] [--tree-truncate-limit N] [--latency MS|MIN-MAX] [--secondary-limits on|off] [--data-dir DIR [--data-dir-repair]] [--json]

Start a local emulator of the GitHub REST API (Git Database, repos, commits, issues, pulls,
releases, rate_limit) and serve until interrupted (Ctrl-C). With --json, prints one JSON line
{ url, port, repositories, tokens, dataDir, journal } once it listens.

With --data-dir DIR, repositories, refs and objects written through the API persist in
DIR/journal.docdb: a restart with the same DIR and --seed serves them again. Each write is on
disk before it is answered; a kill at any moment loses at most the write in flight (a torn
last record is dropped, and the start says so). A corrupt record in the middle of the journal
stops the start, naming the byte and record; --data-dir-repair then keeps the records before
it and moves it and the rest to DIR/journal.docdb.damaged (nothing is deleted).

--secondary-limits on enforces GitHub's secondary rate limits per token: at most 80
content-creating requests (POST, PATCH, PUT, DELETE, GraphQL mutations) a minute and 500 an
hour, 100 concurrent requests, 900 REST points (a read 1, a write 5) and 2,000 GraphQL points a
minute; over a limit the answer is GitHub's 403 with retry-after. Off by default, so a quick
local session that writes a lot never waits.

Example:
  docdb emulator --port 8787
  docdb emulator --port 8787 --data-dir .docdb-emulator   # a local backend that keeps its data
  curl -H "Authorization: Bearer ghp_demo_write" http://127.0.0.1:8787/repos/octo-org/widgets/git/ref/heads/main`,
  async run({ values, io, json }) {
    const { startEmulator, DEMO_SEED } = await import('../../emulator/index.js');
    const [port, latencyMs, dataDir, secondaryLimits, treeTruncateLimit, repair] = await checkUsage(
      () => portOf(values.port),
      () => latencyOf(values.latency),
      () => dataDirOf(values['data-dir']),
      () => onOff('secondary-limits', values['secondary-limits'], false),
      () => int('tree-truncate-limit', values['tree-truncate-limit']),
      () => repairOf(values['data-dir-repair'], values['data-dir']),
    );
    const seedArg = values.seed;
    const demo = seedArg === undefined || seedArg === 'demo';
    const em = await startEmulator({
      port,
      host: typeof values.host === 'string' ? values.host : undefined,
      seed: demo ? DEMO_SEED : String(seedArg),
      treeTruncateLimit,
      latencyMs,
      secondaryLimits,
      ...(dataDir === undefined ? {} : { dataDir: resolve(io.cwd, dataDir), dataDirRepair: repair }),
    });
    const repos = em.state.listRepos().map((r) => `${r.fullName}${r.private ? ' (private)' : ''}`);
    const tokens = demo ? { ghp_demo_write: 'write everywhere', ghp_demo_read: 'read-only' } : {};
    if (json) {
      io.stdout(
        `${JSON.stringify({ url: em.url, port: em.port, repositories: repos, tokens, dataDir: dataDir ?? null, journal: em.dataDir?.replayed ?? null, secondaryLimits })}\n`,
      );
    } else {
      io.stdout(`GitHub API emulator listening on ${em.url}\n`);
      io.stdout(`repositories: ${repos.length > 0 ? repos.join(', ') : '(none)'}\n`);
      io.stdout(
        secondaryLimits
          ? "secondary rate limits: on, GitHub's figures (80 content-creating requests a minute, 500 an hour per token)\n"
          : "secondary rate limits: off (--secondary-limits on to meet GitHub's)\n",
      );
      if (dataDir !== undefined && em.dataDir) io.stdout(dataLine(dataDir, em.dataDir.replayed));
      if (demo) io.stdout('tokens: ghp_demo_write (write everywhere), ghp_demo_read (read-only)\n');
      const example = em.state.listRepos().find((r) => !r.private && !em.state.isEmpty(r));
      if (example) io.stdout(`try: curl ${em.url}/repos/${example.fullName}/git/matching-refs/heads\n`);
      io.stdout('press Ctrl-C to stop\n');
    }
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await em.stop();
    if (!json) io.stderr('emulator stopped\n');
    return EXIT.ok;
  },
};
