/**
 * The state of one projection while its source is read: the report, the read context (ETag book,
 * incremental watermark, shard pre-filter), the keys produced and claimed, and the watermarks seen. Each
 * page goes through `readPage`; only changed documents are emitted (unchanged ones are recognised by
 * blob SHA against the section's tip), then `prune` and `stateOp` add the deletions and the state file.
 */
import { blobSha } from '../../core/git/objects.js';
import type { DocumentOp } from '../../document/document-store.js';
import { deriveKey, parseKey } from '../../document/identity.js';
import {
  ConditionalBook,
  type ReadContext,
  repositoryVars,
  type SourceItem,
  type SourcePage,
  supportsIncremental,
  trustedConditional,
} from '../sources/index.js';
import { type ProjectionSpec, parseTemplate, renderTemplate, templateVariables } from '../spec/index.js';
import { encodeDocument, type ItemDocument, type ItemScope, itemIdentity, reduceItem } from './item-document.js';
import { projectionFailure } from './projection-failure.js';
import type { ProjectionInput, ProjectionReport } from './projection-types.js';
import { inShard } from './shard.js';
import { addSkip, filterSkipReason, reducerSkipReason, skipsPhrase } from './skip-reasons.js';
import { encodeState, trustedWatermarks } from './state-file.js';

const REPO_VARS = new Set(['owner', 'name', 'repo']);

/**
 * @example
 * const pass = new ProjectionPass(input);
 * for await (const page of readSource(pass.ctx, input.p.source)) await pass.readPage(page);
 */
export class ProjectionPass {
  readonly report: ProjectionReport;
  /** Document puts and deletes, when the input gives no `emit`. */
  readonly changes: DocumentOp[] = [];
  /** The read context of this projection's source. */
  readonly ctx: ReadContext;
  private readonly incremental: boolean;
  private readonly scope: ItemScope;
  private readonly book: ConditionalBook;
  private readonly emit: (op: DocumentOp) => Promise<void>;
  private readonly produced = new Set<string>();
  private readonly unmatched = new Set<string>();
  private readonly watermarks: Record<string, string> = {};
  /** The previous run's watermarks that may be used (trustedWatermarks); empty unless incremental. */
  private readonly since: Readonly<Record<string, string>>;
  private readonly log: (line: string) => void;

  constructor(private readonly input: ProjectionInput) {
    const { p, mode, fingerprint, oldState, existing } = input;
    this.log = input.read.log;
    const canIncrement = mode !== 'backfill' && supportsIncremental(p.source.type);
    this.incremental = canIncrement && oldState?.fingerprint === fingerprint;
    if (canIncrement && oldState && !this.incremental) {
      this.log(
        `[${p.name}] the projection's source, identity or reducer changed since the last run: re-projecting everything`,
      );
    }
    this.report = emptyReport(p, this.incremental);
    this.scope = { p, specFile: input.specFile, reducer: input.reducer, idParts: parseTemplate(p.identity.id) };
    this.book = new ConditionalBook(
      oldState?.fingerprint === fingerprint
        ? trustedConditional(oldState.conditional, input.read.apiUrl, input.read.log)
        : undefined,
      input.tokenIdentity,
      (k) => existing.has(k),
      mode !== 'backfill',
    );
    this.since = this.incremental && oldState ? trustedWatermarks(oldState.watermarks, this.log) : {};
    this.ctx = this.readContext();
    this.emit = input.emit ?? (async (op: DocumentOp) => void this.changes.push(op));
    // Watermarks of repositories this run sees no item of (or that left an `owner/*` selection) carry over.
    Object.assign(this.watermarks, this.since);
  }

  /** The progress line that opens the projection. */
  logStart(): void {
    const { p, mode, shard } = this.input;
    const { repositories } = this.report;
    this.log(
      `[${p.name}] ${p.source.type}${repositories.length ? ` of ${repositories.join(', ')}` : ''}${this.incremental ? ' (incremental)' : mode === 'backfill' ? ' (backfill)' : ''}${shard && shard.count > 1 ? ` [shard ${shard.index}/${shard.count}]` : ''}`,
    );
  }

  /** Reduce and diff every item of a page (or, for a 304, keep what the page produced last time). */
  async readPage(page: SourcePage): Promise<void> {
    if (page.conditional?.notModified) {
      this.notModified(page.conditional.key, page);
      return;
    }
    const pageKeys: string[] = [];
    for (const it of page.items) {
      const key = await this.item(it);
      if (key) pageKeys.push(key);
    }
    if (page.conditional) this.book.addKeys(page.conditional.key, pageKeys);
    this.log(
      `[${this.input.p.name}]   ${page.repository} page ${page.page}: ${page.items.length} item(s), ${this.report.items} so far`,
    );
  }

  /**
   * Delete what is gone: a full run saw every item, so anything else in the scope (of this shard) is gone;
   * an incremental run only knows about the items it saw that stopped matching.
   */
  async prune(): Promise<void> {
    const { p, existing, shard } = this.input;
    const scope = `${p.identity.namespace}/${p.identity.type}/`;
    const candidates = this.incremental
      ? [...this.unmatched]
      : [...existing.keys()].filter((k) => k.startsWith(scope) && !this.produced.has(k) && inShard(k, shard));
    for (const key of candidates) {
      if (!existing.has(key) || this.produced.has(key)) continue;
      const gone = parseKey(key);
      if (!gone) continue; // not a document key (cannot happen inside a <namespace>/<type>/ scope)
      await this.emit({ op: 'delete', identity: gone });
      this.report.removed.push(key);
    }
  }

  /**
   * The state file write, when it must be committed: with document changes, or when it is new or its
   * fingerprint changed. A watermark or ETag that only moved (items updated in ways the reducer ignores) is
   * not worth a commit on its own: the next run simply re-reads those few items.
   */
  stateOp(): DocumentOp | undefined {
    const { p, fingerprint, oldState, existing, stateKey } = this.input;
    const conditional = this.book.toState();
    if (!supportsIncremental(p.source.type) && !conditional) return undefined;
    const watermarks = this.watermarks;
    const bytes = encodeState({ version: 1, fingerprint, watermarks, ...(conditional ? { conditional } : {}) });
    const { added, changed, removed } = this.report;
    const docChanges = added.length + changed.length + removed.length;
    if (existing.get(stateKey) === blobSha(bytes)) return undefined;
    if (docChanges === 0 && oldState?.fingerprint === fingerprint) return undefined;
    return { op: 'meta', key: stateKey, value: bytes };
  }

  /** The progress line that closes the projection. */
  logEnd(): void {
    const r = this.report;
    this.log(
      // The skips last: each with its reason (skip-reasons.ts).
      `[${this.input.p.name}] ${r.items} item(s): ${r.added.length} added, ${r.changed.length} changed, ${r.removed.length} removed, ${r.unchanged} unchanged${r.notModified ? `, ${r.notModified} page(s) not modified` : ''}${r.skipped ? `, ${r.skipped} skipped: ${skipsPhrase(r.skips)}` : ''}`,
    );
  }

  private readContext(): ReadContext {
    const { p, shard } = this.input;
    const { namespace, type } = p.identity;
    // With a shard and an identity that depends on the repository alone, other shards' repositories are not even read.
    const byRepository =
      shard && p.source.type === 'repository' && templateVariables(p.identity.id).every((v) => REPO_VARS.has(v));
    const keyOfRepository = (r: string) =>
      deriveKey({
        namespace,
        doc_type: type,
        id: renderTemplate(this.scope.idParts, repositoryVars(r)),
      });
    const maxPages = 'max-pages' in p.source ? p.source['max-pages'] : undefined;
    return {
      ...this.input.read,
      book: this.book,
      ...(maxPages !== undefined ? { maxPages } : {}),
      ...(this.incremental ? { since: (r: string) => this.since[r] } : {}),
      ...(byRepository ? { wants: (r: string) => inShard(keyOfRepository(r), shard) } : {}),
    };
  }

  /** 304: the documents this page produced last time are unchanged (their keys are all still in the tip). */
  private notModified(key: string, page: SourcePage): void {
    const keys = this.book.previous(key)?.keys ?? [];
    for (const k of keys) {
      this.claim(k, k);
      this.report.unchanged++;
    }
    this.book.addKeys(key, keys);
    this.report.notModified++;
    this.log(
      `[${this.input.p.name}]   ${page.repository} page ${page.page}: not modified (304), ${keys.length} document(s) unchanged`,
    );
  }

  /** Reduce one item; returns the document key it produced, or undefined when skipped or in another shard. */
  private async item(it: SourceItem): Promise<string | undefined> {
    const { id, key } = itemIdentity(this.scope, it);
    if (!inShard(key, this.input.shard)) return undefined;
    this.report.items++;
    this.observeWatermark(it);
    if (!it.matches) return this.skip(key, filterSkipReason(this.input.p));
    const data = await reduceItem(this.scope, it, key, id);
    if (data === null) return this.skip(key, reducerSkipReason(this.input.p));
    this.claim(key, id);
    const { document, bytes } = encodeDocument(this.scope, key, id, data);
    await this.diff(key, document, bytes);
    return key;
  }

  private observeWatermark(it: SourceItem): void {
    if (!it.updatedAt || !it.repository) return;
    const mark = this.watermarks[it.repository];
    if (!mark || it.updatedAt > mark) this.watermarks[it.repository] = it.updatedAt;
  }

  /** The item produced no document, for `reason`: if its document exists, an incremental prune removes it. */
  private skip(key: string, reason: string): undefined {
    this.unmatched.add(key);
    this.report.skipped++;
    addSkip(this.report.skips, reason, key);
    return undefined;
  }

  /** Only changed documents go on (streamed into the commit by the run); unchanged ones are dropped here. */
  private async diff(key: string, document: ItemDocument, bytes: Uint8Array): Promise<void> {
    const before = this.input.existing.get(key);
    if (before === blobSha(bytes)) {
      this.report.unchanged++;
      return;
    }
    await this.emit({ op: 'put', document });
    (before === undefined ? this.report.added : this.report.changed).push(key);
  }

  /** One document key per run: two items, or two projections, on one key is a spec error. */
  private claim(key: string, id: string): void {
    const { p, specFile, claimed } = this.input;
    const owner = claimed.get(key);
    if (owner !== undefined) {
      throw projectionFailure(
        specFile,
        p,
        p.lines.id,
        'identity.id',
        owner === p.name
          ? `: two items map to the same id ${JSON.stringify(id)}; make the template unique (e.g. include {repo} and {number})`
          : `: document ${key} is also written by projection "${owner}"`,
        { key },
      );
    }
    claimed.set(key, p.name);
    this.produced.add(key);
    this.unmatched.delete(key);
  }
}

function emptyReport(p: ProjectionSpec, incremental: boolean): ProjectionReport {
  return {
    name: p.name,
    source: p.source.type,
    repositories: 'repositories' in p.source ? p.source.repositories : [],
    incremental,
    items: 0,
    skipped: 0,
    skips: [],
    notModified: 0,
    added: [],
    changed: [],
    removed: [],
    unchanged: 0,
  };
}
