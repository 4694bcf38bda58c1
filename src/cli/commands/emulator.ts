/** `docdb emulator [--port N] [--seed FILE|demo] [--host H]`: serve the GitHub API emulator until Ctrl-C. */
import type { CliCommand } from '../command.js';

export const command: CliCommand = {
  options: {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    seed: { type: 'string', short: 's' },
    'tree-truncate-limit': { type: 'string' },
    latency: { type: 'string' },
  },
  usage: `usage: docdb emulator [--port N] [--seed FILE|demo] [--host 127.0.0.1]

Start a local emulator of the GitHub REST API (Git Database, repos, commits, issues, pulls,
releases, rate_limit) and serve until interrupted (Ctrl-C).

  --port N                 port to listen on (default 0: a free port; the URL is printed)
  --host H                 interface to bind (default 127.0.0.1, loopback only)
  --seed FILE|demo         JSON or YAML seed file, or "demo" for the built-in demo world (default: demo)
  --tree-truncate-limit N  recursive tree truncation limit (default 100000)
  --latency MS             added latency per request, "MS" or "MIN-MAX"

Example:
  docdb emulator --port 3000
  curl -H "Authorization: Bearer ghp_demo_write" http://127.0.0.1:3000/repos/octo-org/widgets/git/ref/heads/main`,
  async run(values) {
    const { startEmulator, DEMO_SEED } = await import('../../emulator/index.js');
    const int = (name: string, v: unknown): number | undefined => {
      if (v === undefined) return undefined;
      if (typeof v !== 'string' || !/^\d+$/.test(v))
        throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
      return Number(v);
    };
    let latencyMs: number | { min: number; max: number } | undefined;
    if (typeof values.latency === 'string') {
      const m = /^(\d+)(?:-(\d+))?$/.exec(values.latency);
      if (!m) throw new Error(`--latency must be "MS" or "MIN-MAX", got ${JSON.stringify(values.latency)}`);
      latencyMs = m[2] ? { min: Number(m[1]), max: Number(m[2]) } : Number(m[1]);
    }
    const seedArg = values.seed;
    const em = await startEmulator({
      port: int('port', values.port),
      host: typeof values.host === 'string' ? values.host : undefined,
      seed: seedArg === undefined || seedArg === 'demo' ? DEMO_SEED : String(seedArg),
      treeTruncateLimit: int('tree-truncate-limit', values['tree-truncate-limit']),
      latencyMs,
    });
    const repos = em.state.listRepos().map((r) => `${r.fullName}${r.private ? ' (private)' : ''}`);
    console.log(`GitHub API emulator listening on ${em.url}`);
    console.log(`repositories: ${repos.length > 0 ? repos.join(', ') : '(none)'}`);
    if (seedArg === undefined || seedArg === 'demo') {
      console.log('tokens: ghp_demo_write (write everywhere), ghp_demo_read (read-only)');
    }
    const example = em.state.listRepos().find((r) => !r.private && !em.state.isEmpty(r));
    if (example) console.log(`try: curl ${em.url}/repos/${example.fullName}/git/matching-refs/heads`);
    console.log('press Ctrl-C to stop');
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
    console.log('emulator stopped');
    return 0;
  },
};
