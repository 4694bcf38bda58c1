/**
 * One long-lived `git cat-file --batch` per repository: every object read is a line on its stdin
 * and an answer on its stdout (a process per object would be ~1000× slower). Requests are pipelined
 * and answered in order. A process that dies (killed, crashed) is replaced on the next read, and the
 * reads it had not answered are sent once more to the new process (reads are idempotent).
 * See https://git-scm.com/docs/git-cat-file#_batch_output
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { GitError } from '../../core/errors.js';
import { type GitCommandOptions, gitExitError, gitSpawnError } from './git-command.js';

export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** An object as cat-file returned it. */
export interface GitObject {
  sha: string;
  type: GitObjectType;
  body: Buffer;
}

interface Pending {
  name: string;
  resolve: (o: GitObject | null) => void;
  reject: (e: unknown) => void;
  /** Already re-sent once after a process died. */
  resent: boolean;
}

const HEADER_RE = /^([0-9a-f]{40}) (blob|tree|commit|tag) (\d+)$/;
const EMPTY = Buffer.alloc(0);

/** One `git cat-file --batch` child and its protocol state. */
class BatchProcess {
  readonly child: ChildProcess;
  readonly queue: Pending[] = [];
  private partial: Buffer = EMPTY;
  private body: { sha: string; type: GitObjectType; out: Buffer; filled: number } | undefined;
  stderr = '';
  dead = false;

  constructor(
    options: GitCommandOptions,
    private readonly onDeath: (proc: BatchProcess, error: GitError) => void,
  ) {
    const args = ['cat-file', '--batch'];
    this.child = spawn(options.git, [...options.globalArgs, ...args], {
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.on('error', (e) => this.die(gitSpawnError(options, args, e)));
    this.child.stdin?.on('error', () => {}); // EPIPE after a kill: 'close' reports it
    this.child.stderr?.on('data', (c: Buffer) => {
      this.stderr = (this.stderr + c.toString('utf8')).slice(-4000);
    });
    this.child.stdout?.on('data', (c: Buffer) => this.onData(c));
    this.child.on('close', (code, signal) =>
      this.die(gitExitError(options, args, { code, signal, stderr: this.stderr }, 'git cat-file --batch')),
    );
  }

  send(p: Pending): void {
    this.queue.push(p);
    if (this.queue.length === 1) this.setRef(true);
    this.child.stdin?.write(`${p.name}\n`);
  }

  /** Keep Node alive only while reads are outstanding, so an idle store never blocks process exit. */
  setRef(on: boolean): void {
    for (const s of [this.child, this.child.stdin, this.child.stdout, this.child.stderr]) {
      const handle = s as unknown as { ref?: () => void; unref?: () => void } | null;
      if (on) handle?.ref?.();
      else handle?.unref?.();
    }
  }

  private settle(value: GitObject | null | Error): void {
    const p = this.queue.shift();
    if (this.queue.length === 0) this.setRef(false);
    if (!p) {
      this.die(new GitError('git cat-file answered a read nobody asked for', { reason: 'protocol' }));
      return;
    }
    if (value instanceof Error) p.reject(value);
    else p.resolve(value);
  }

  private onData(chunk: Buffer): void {
    let data = chunk;
    while (data.length > 0 && !this.dead) {
      if (this.body) {
        const b = this.body;
        const n = Math.min(b.out.length - b.filled, data.length);
        data.copy(b.out, b.filled, 0, n);
        b.filled += n;
        data = data.subarray(n);
        if (b.filled === b.out.length) {
          this.body = undefined;
          if (b.out[b.out.length - 1] !== 0x0a) {
            this.die(new GitError('git cat-file --batch: object not followed by a newline', { reason: 'protocol' }));
            return;
          }
          this.settle({ sha: b.sha, type: b.type, body: b.out.subarray(0, b.out.length - 1) });
        }
        continue;
      }
      const nl = data.indexOf(0x0a);
      if (nl < 0) {
        this.partial = Buffer.concat([this.partial, data]);
        return;
      }
      const line = Buffer.concat([this.partial, data.subarray(0, nl)]).toString('utf8');
      this.partial = EMPTY;
      data = data.subarray(nl + 1);
      const m = HEADER_RE.exec(line);
      if (m) {
        // size + 1: the body is followed by a newline.
        this.body = { sha: m[1]!, type: m[2] as GitObjectType, out: Buffer.allocUnsafe(Number(m[3]) + 1), filled: 0 };
      } else if (line.endsWith(' missing') || line.endsWith(' ambiguous')) {
        this.settle(null);
      } else {
        this.die(
          new GitError(
            `git cat-file --batch answered ${JSON.stringify(line.slice(0, 200))}; expected "<sha> <type> <size>" ` +
              '(docdb supports SHA-1 repositories only)',
            { reason: 'protocol' },
          ),
        );
        return;
      }
    }
  }

  die(error: GitError): void {
    if (this.dead) return;
    this.dead = true;
    this.setRef(false);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
    this.onDeath(this, error);
  }
}

/**
 * Reads objects through one `git cat-file --batch` process, started on first use.
 *
 * @example
 * const reader = new CatFileReader(options);
 * const obj = await reader.read('refs/docdb/documents'); // { sha, type: 'commit', body } or null
 * await reader.close();
 */
export class CatFileReader {
  private proc: BatchProcess | undefined;
  private closed = false;

  constructor(private readonly options: GitCommandOptions) {}

  /** Process id of the current cat-file child (for diagnostics and tests), if one runs. */
  get pid(): number | undefined {
    return this.proc && !this.proc.dead ? this.proc.child.pid : undefined;
  }

  /**
   * The object `name` resolves to (an object id, a full ref name, or `<commit>:<path>`), or `null`
   * when it does not exist. `name` must not contain a newline.
   */
  read(name: string): Promise<GitObject | null> {
    if (name.includes('\n')) return Promise.reject(new TypeError('object name must not contain a newline'));
    return new Promise((resolve, reject) => this.dispatch({ name, resolve, reject, resent: false }));
  }

  private dispatch(p: Pending): void {
    if (this.closed) {
      p.reject(new GitError('the git store was closed', { reason: 'closed' }));
      return;
    }
    if (!this.proc || this.proc.dead) {
      this.proc = new BatchProcess(this.options, (dead, error) => this.onDeath(dead, error));
    }
    this.proc.send(p);
  }

  private onDeath(dead: BatchProcess, error: GitError): void {
    if (this.proc === dead) this.proc = undefined;
    const orphans = dead.queue.splice(0);
    const fatal = this.closed || error.data.reason === 'missing-binary' || error.data.reason === 'protocol';
    for (const p of orphans) {
      if (fatal || p.resent) p.reject(error);
      else this.dispatch({ ...p, resent: true });
    }
  }

  /** Stop the process (pending reads fail). Reads after close reject. */
  async close(): Promise<void> {
    this.closed = true;
    const proc = this.proc;
    this.proc = undefined;
    if (!proc || proc.dead) return;
    await new Promise<void>((resolve) => {
      proc.setRef(true); // an idle process is unref'd: waiting for its exit must keep Node alive
      proc.child.once('close', () => resolve());
      proc.child.stdin?.end();
      setTimeout(() => proc.child.kill('SIGKILL'), 2000).unref();
    });
  }
}
