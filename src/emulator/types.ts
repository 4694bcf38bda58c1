/**
 * Public types of the GitHub API emulator (the contract in docs/emulator.md): the options of
 * `startEmulator` and the handle it returns. This module sits at the top of the emulator: nothing inside
 * the emulator imports it (lower layers use ./model.ts and ./traffic.ts, re-exported here).
 */
import type { ObjectDb } from '../core/git/object-db.js';
import type { EmulatorAppOptions } from './app.js';
import type { DataDirReplay } from './persist/data-dir.js';
import type { SecondaryLimitFigures } from './rations.js';
import type { EmulatorSeed } from './seed.js';
import type { EmulatorState } from './state.js';
import type { Fault, RequestLogEntry } from './traffic.js';

export type { RepoAccess, TokenOptions } from './model.js';
export type { SecondaryLimitFigures } from './rations.js';
export type { EmulatorSeed } from './seed.js';
export type { Fault, RequestLogEntry, ResponseRecord, SecondaryLimitKind } from './traffic.js';

/** Options of `startEmulator`: the app's options (see EmulatorAppOptions) plus where to listen and a seed. */
export interface EmulatorOptions extends EmulatorAppOptions {
  /** TCP port; default 0 (a random free port). */
  port?: number;
  /** Interface to bind; default `127.0.0.1` (loopback only). */
  host?: string;
  /** A seed object, or a path to a `.json` / `.yaml` / `.yml` seed file. Default: no repositories. */
  seed?: EmulatorSeed | string;
  /**
   * Keep repositories, refs and objects in this directory across restarts (created when missing): the
   * seed is applied at each start, then what was written since is replayed from `DIR/journal.docdb`.
   * Every write is on disk before its response is sent; a kill at any point leaves a readable state.
   * Issues, pulls, releases and tokens come from the seed each time. One emulator per directory.
   */
  dataDir?: string;
  /**
   * With `dataDir`: when the journal has a corrupt record (not a torn last write), keep the records before
   * it and move it and the rest to `DIR/journal.docdb.damaged` instead of refusing to start
   * (`--data-dir-repair`). Nothing is deleted.
   */
  dataDirRepair?: boolean;
}

export interface EmulatorHandle {
  /** API base URL like `http://127.0.0.1:PORT` (plays the role of https://api.github.com). */
  url: string;
  port: number;
  /** Origin of the archive download site (codeload.github.com's part), on a second port. */
  codeloadUrl: string;
  stop(): Promise<void>;
  /** Request log, oldest first. */
  readonly requests: ReadonlyArray<RequestLogEntry>;
  clearLog(): void;
  inject(fault: Fault): void;
  clearFaults(): void;
  state: EmulatorState;
  /** The secondary rate limits enforced (`secondaryLimits` option), or undefined when they are off. */
  readonly secondaryLimits: Readonly<SecondaryLimitFigures> | undefined;
  exportBareRepo(fullName: string, dir: string): Promise<void>;
  /**
   * With `dataDir`: what the start replayed (records, the bytes of a torn last record dropped, where a
   * repair moved damaged records) and, once the journal has stopped taking writes, why.
   */
  readonly dataDir?: { readonly replayed: DataDirReplay; stopped(): string | undefined };
}

export type { ObjectDb };
