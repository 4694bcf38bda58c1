/**
 * The new tree of a write, sent as a chain of `POST /git/trees` requests: each request carries up to
 * `maxInlineBytes` of inline content (or entries naming existing blobs by SHA) and names the previous
 * request's tree as its `base_tree`, so the last reply is the whole new root. Changes can be added in
 * parts — a streamed write sends each request as soon as it is full, so only one request's worth of
 * content is held at a time however large the write.
 * https://docs.github.com/rest/git/trees#create-a-tree
 */
import type { PlannedTreeChange } from '../../core/plan.js';

/** One entry as `POST /git/trees` takes it. */
export interface TreeEntryBody {
  path: string;
  mode: string;
  type: 'blob';
  sha?: string | null;
  content?: string;
}

/** A tree change: with `content` it may go inline; without, `sha` names a blob that already exists. */
export type UploadChange = Pick<PlannedTreeChange, 'path' | 'mode' | 'sha'> & { content?: Uint8Array };

export interface TreeUploadHost {
  maxInlineBytes: number;
  /** Send one create-tree request; returns the new tree's SHA. */
  createTree(body: { base_tree?: string; tree: TreeEntryBody[] }): Promise<string>;
  /** Upload one blob (values that cannot go inline); returns its SHA. */
  createBlob(bytes: Uint8Array, sha: string): Promise<string>;
}

// ignoreBOM: keep a leading U+FEFF as content (the default decoder would silently strip it and change the blob).
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes an entry naming a blob by SHA adds to a request body (path + SHA + JSON punctuation). */
const SHA_ENTRY_BYTES = 96;

/**
 * @example
 * const up = new TreeUpload(host, baseTree, uploadedBlobs);
 * await up.add(plan.treeChanges); // may send requests
 * const root = await up.finish(); // sends the rest, returns the new root tree
 */
export class TreeUpload {
  private tree: string | null;
  private chunk: TreeEntryBody[] = [];
  /** SHAs of the blobs the queued chunk creates from inline content. */
  private inlineShas: string[] = [];
  private bytes = 0;
  private sent = false;

  constructor(
    private readonly host: TreeUploadHost,
    base: string | null,
    /**
     * Blobs already uploaded by an earlier attempt: named by SHA instead of sent again; the blobs this
     * upload sends are added. Omitted: nothing is tracked (a caller that re-plans by SHA needs no record).
     */
    private readonly uploaded?: Set<string>,
  ) {
    this.tree = base;
  }

  /** Queue changes, sending every request that fills up. */
  async add(changes: readonly UploadChange[]): Promise<void> {
    for (const c of changes) {
      let entry: TreeEntryBody;
      let size = SHA_ENTRY_BYTES + c.path.length;
      if (c.sha === null) entry = { path: c.path, mode: c.mode, type: 'blob', sha: null };
      else if (c.content === undefined || this.uploaded?.has(c.sha)) {
        entry = { path: c.path, mode: c.mode, type: 'blob', sha: c.sha };
      } else {
        const bytes = c.content;
        let text: string | undefined;
        // NUL bytes are valid UTF-8 but risky inside a JSON string for GitHub; send such values as blobs.
        if (bytes.length <= this.host.maxInlineBytes && !bytes.includes(0)) {
          try {
            text = utf8Strict.decode(bytes);
          } catch {
            text = undefined; // not UTF-8: inline content is a string, so upload the blob as base64
          }
        }
        if (text === undefined) {
          const sha = await this.host.createBlob(bytes, c.sha);
          this.uploaded?.add(sha);
          entry = { path: c.path, mode: c.mode, type: 'blob', sha };
        } else {
          entry = { path: c.path, mode: c.mode, type: 'blob', content: text };
          size = bytes.length;
          if (this.uploaded) this.inlineShas.push(c.sha);
        }
      }
      if (this.bytes + size > this.host.maxInlineBytes && this.chunk.length > 0) await this.flush();
      this.bytes += size;
      this.chunk.push(entry);
    }
  }

  /** Send what is queued; the new root tree (the base when nothing was ever added). */
  async finish(): Promise<string | null> {
    await this.flush();
    return this.tree;
  }

  /** True once any request was sent. */
  get started(): boolean {
    return this.sent || this.chunk.length > 0;
  }

  private async flush(): Promise<void> {
    if (this.chunk.length === 0) return;
    const tree = this.chunk;
    const created = this.inlineShas;
    this.chunk = [];
    this.inlineShas = [];
    this.bytes = 0;
    this.sent = true;
    this.tree = await this.host.createTree(this.tree === null ? { tree } : { base_tree: this.tree, tree });
    // GitHub stored those blobs with the tree: a retry names them by SHA instead of sending them again.
    for (const sha of created) this.uploaded?.add(sha);
  }
}
