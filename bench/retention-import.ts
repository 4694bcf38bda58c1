/**
 * One measured history of the retention benchmark: simulate `commits` hourly runs of the model in
 * bench/retention-model.ts, stream the commits a policy keeps into a new bare repository with
 * `git fast-import` (https://git-scm.com/docs/git-fast-import), repack it the way a server's garbage
 * collection would (`git repack -adf`: one pack, deltas searched again from scratch) and read the packed
 * size (`git count-objects -v`, size-pack).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changedInRun, documentBytes, type Policy, prng, runSeconds } from './retention-model.js';

/** What one history is: its size, its model and its policy. */
export interface HistoryCase {
  docs: number;
  churn: number;
  commits: number;
  perDir: number;
  seed: number;
  policy: Policy;
}

/** What was measured for one history. */
export interface HistorySize {
  /** Commits in the measured history (a compacted one counts its root). */
  commitsKept: number;
  /** Blobs written (document versions present in the kept history). */
  blobs: number;
  /** `size-pack` after `git repack -adf`, in bytes. */
  packBytes: number;
  /** Objects in that pack. */
  objects: number;
  importMs: number;
  repackMs: number;
}

const REF = 'refs/docdb/documents';

/** A 40-hex stand-in for the original commit SHA a compaction's trailer names (same length, same entropy). */
const originalSha = (run: number) => createHash('sha1').update(`original-${run}`).digest('hex');

function commitHeader(seconds: number, message: string): Buffer {
  const msg = Buffer.from(message);
  return Buffer.from(
    `commit ${REF}\ncommitter docdb <docdb@users.noreply.github.com> ${seconds} +0000\ndata ${msg.length}\n${msg}\n`,
  );
}

function fileChange(key: string, value: Uint8Array): Buffer[] {
  return [Buffer.from(`M 100644 inline ${key}\ndata ${value.length}\n`), Buffer.from(value), Buffer.from('\n')];
}

/** The fast-import stream of one history, commit by commit (one Buffer each), as the simulation runs. */
function* historyStream(c: HistoryCase, onBlob: () => void): Generator<Buffer> {
  const kept = c.policy.keep(c.commits);
  const compacted = c.policy.name !== 'none' && kept[0] !== 0;
  const version = new Int32Array(c.docs);
  const changedAt = new Int32Array(c.docs);
  const stamp = new Int32Array(c.docs);
  // Documents changed since the last emitted commit: a thinned history's commit carries them all.
  const dirty = new Uint8Array(c.docs).fill(1);
  let dirtyList = Array.from({ length: c.docs }, (_, i) => i);
  const next = prng(c.seed);
  const emitDirty = (): Buffer[] => {
    const parts: Buffer[] = [];
    for (const i of dirtyList.sort((a, b) => a - b)) {
      const { key, value } = documentBytes(i, version[i] as number, changedAt[i] as number, c.perDir);
      parts.push(...fileChange(key, value));
      dirty[i] = 0;
      onBlob();
    }
    dirtyList = [];
    return parts;
  };
  let k = 0;
  for (let run = 0; run < c.commits && k < kept.length; run++) {
    if (run > 0) {
      for (const i of changedInRun(next, c.docs, c.churn, stamp, run)) {
        version[i] = (version[i] as number) + 1;
        changedAt[i] = run;
        if (!dirty[i]) {
          dirty[i] = 1;
          dirtyList.push(i);
        }
      }
    }
    if (kept[k] !== run) continue;
    const when = runSeconds(run);
    if (compacted && k === 0) {
      yield Buffer.concat([commitHeader(when, 'docdb: compacted history (root)\n'), ...emitDirty()]);
    }
    const message = compacted
      ? `docdb: hourly run ${run}\n\nDocdb-Original-Commit: ${originalSha(run)}\n`
      : `docdb: hourly run ${run}\n`;
    yield Buffer.concat([commitHeader(when, message), ...emitDirty(), Buffer.from('\n')]);
    k++;
  }
}

function git(dir: string, args: string[]): string {
  const r = spawnSync('git', ['-c', 'repack.writeBitmaps=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** Pipe the history into `git fast-import`, honouring backpressure (a year of 100,000 documents is GBs). */
async function fastImport(dir: string, stream: Iterable<Buffer>): Promise<number> {
  const child = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  let commits = 0;
  for (const chunk of stream) {
    commits++;
    if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
  }
  child.stdin.end('done\n');
  const status = await closed;
  if (status !== 0) throw new Error(`git fast-import failed (${status}): ${stderr}`);
  return commits;
}

/**
 * Build, repack and measure one history in a temporary bare repository (removed afterwards).
 *
 * @example
 * const size = await measureHistory({ docs: 1000, churn: 0.01, commits: 100, perDir: 100, seed: 1, policy: POLICIES[0] });
 * size.packBytes; // bytes of the single pack after git repack -adf
 */
export async function measureHistory(c: HistoryCase): Promise<HistorySize> {
  const dir = mkdtempSync(join(process.env.RETENTION_TMP ?? tmpdir(), 'docdb-retention-'));
  try {
    git(dir, ['init', '--quiet', '--bare', '.']);
    let blobs = 0;
    const t0 = performance.now();
    const commitsKept = await fastImport(
      dir,
      historyStream(c, () => blobs++),
    );
    const t1 = performance.now();
    git(dir, ['repack', '-adf', '-q']);
    const t2 = performance.now();
    const counts = Object.fromEntries(
      git(dir, ['count-objects', '-v'])
        .trim()
        .split('\n')
        .map((l) => l.split(': ') as [string, string]),
    );
    return {
      commitsKept,
      blobs,
      packBytes: Number(counts['size-pack']) * 1024,
      objects: Number(counts['in-pack']),
      importMs: t1 - t0,
      repackMs: t2 - t1,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
