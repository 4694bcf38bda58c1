/**
 * What one projection of a run takes (`ProjectionInput`) and gives back (`ProjectionRun`, with its
 * `ProjectionReport`). A leaf module of types: the per-projection pass and the run around it share them.
 */
import type { DocumentOp } from '../../document/document-store.js';
import type { LoadedReducer } from '../reducers/index.js';
import type { ReadContext } from '../sources/index.js';
import type { ProjectionSpec } from '../spec/index.js';
import type { Shard } from './shard.js';
import type { ProjectionSkip } from './skip-reasons.js';
import type { ProjectionState } from './state-file.js';

export interface ProjectionReport {
  name: string;
  source: string;
  repositories: string[];
  /** Whether the run fetched only items updated since the stored watermark. */
  incremental: boolean;
  /** Source items seen (in this run's shard). */
  items: number;
  /** Items the reducer skipped (returned null) or that no longer match the source filter. */
  skipped: number;
  /** Why they were skipped: one entry per reason, its count and the first document keys (sums to `skipped`). */
  skips: ProjectionSkip[];
  /** Pages the server answered 304 Not Modified (their documents are unchanged). */
  notModified: number;
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: number;
}

export interface ProjectionRun {
  report: ProjectionReport;
  /** Document puts and deletes, in source order (empty when they were given to `emit`). */
  changes: DocumentOp[];
  /** The state file write, when it must be committed. */
  state?: DocumentOp;
}

export interface ProjectionInput {
  p: ProjectionSpec;
  specFile: string;
  mode: 'project' | 'backfill' | 'dry-run';
  reducer: LoadedReducer;
  fingerprint: string;
  stateKey: string;
  oldState: ProjectionState | undefined;
  /** Blob SHA of every key at the section's tip. */
  existing: ReadonlyMap<string, string>;
  /** key → projection that produced it in this run (shared by all projections of the run). */
  claimed: Map<string, string>;
  shard: Shard | undefined;
  /** Token identity for conditional reads (undefined: off). */
  tokenIdentity: string | undefined;
  /** The run's read context without the per-projection parts (book, since, wants). */
  read: Omit<ReadContext, 'book' | 'since' | 'wants'>;
  /**
   * Where document puts and deletes go as they are found (run-projections.ts streams them into the commit);
   * without it they are collected in `changes`.
   */
  emit?: (op: DocumentOp) => Promise<void>;
}
