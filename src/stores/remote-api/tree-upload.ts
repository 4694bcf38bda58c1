/**
 * The new tree of a write, sent as a chain of `POST /git/trees` requests: each request carries up to
 * `maxInlineBytes` of inline content (or entries naming existing blobs by SHA) and names the previous
 * request's tree as its `base_tree`, so the last reply is the whole new root. Changes can be added in
 * parts — a streamed write sends each request as soon as it is full, so only one request's worth of
 * content is held at a time however large the write.
 * https://docs.github.com/rest/git/trees#create-a-tree
 */
import { isUtf8 } from '../../core/bytes.js';
import type { PlannedTreeChange } from '../../core/plan.js';
import { TreeBodyWriter } from './tree-body.js';

/**
 * A tree change: with `content` it may go inline; without, `sha` names a blob that already exists, or
 * (`null`) deletes the path — a whole directory with mode `040000` (delete-collapse.ts).
 */
export type UploadChange = Pick<PlannedTreeChange, 'path' | 'sha' | 'content'> & { mode: '100644' | '040000' };

export interface TreeUploadHost {
  maxInlineBytes: number;
  /** Send one create-tree request (its JSON body, tree-body.ts); returns the new tree's SHA. */
  createTree(body: Uint8Array): Promise<string>;
  /** Upload one blob (values that cannot go inline); returns its SHA. */
  createBlob(bytes: Uint8Array, sha: string): Promise<string>;
}

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
  /** The request being filled (started with its first entry, once the previous request's tree is known). */
  private chunk: TreeBodyWriter | undefined;
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
      const { sha, path, mode, content } = c;
      const known = sha === null || content === undefined || this.uploaded?.has(sha) === true;
      const inline = !known && this.inline(content as Uint8Array);
      const size = inline ? (content as Uint8Array).length : SHA_ENTRY_BYTES + path.length;
      if (this.bytes + size > this.host.maxInlineBytes && this.chunk) await this.flush();
      // A value that cannot go inline is uploaded as a blob first (between requests, never inside one).
      const named = known || inline ? sha : await this.blob(content as Uint8Array, sha as string);
      this.chunk ??= new TreeBodyWriter(this.tree, this.host.maxInlineBytes);
      this.bytes += size;
      if (inline) {
        this.chunk.addContent(path, mode, content as Uint8Array);
        if (this.uploaded) this.inlineShas.push(sha as string);
      } else this.chunk.addSha(path, mode, named);
    }
  }

  private async blob(content: Uint8Array, sha: string): Promise<string> {
    const created = await this.host.createBlob(content, sha);
    this.uploaded?.add(created);
    return created;
  }

  /**
   * Whether a value goes inline as `content`: not above `maxInlineBytes`, valid UTF-8 (inline content is
   * a string) and without NUL (valid UTF-8, but risky inside a JSON string for GitHub). Else it is
   * uploaded as a blob.
   */
  private inline(content: Uint8Array): boolean {
    return content.length <= this.host.maxInlineBytes && !content.includes(0) && isUtf8(content);
  }

  /** Send what is queued; the new root tree (the base when nothing was ever added). */
  async finish(): Promise<string | null> {
    await this.flush();
    return this.tree;
  }

  /** True once any request was sent. */
  get started(): boolean {
    return this.sent || this.chunk !== undefined;
  }

  private async flush(): Promise<void> {
    if (!this.chunk) return;
    const body = this.chunk.finish();
    const created = this.inlineShas;
    this.chunk = undefined;
    this.inlineShas = [];
    this.bytes = 0;
    this.sent = true;
    this.tree = await this.host.createTree(body);
    // GitHub stored those blobs with the tree: a retry names them by SHA instead of sending them again.
    for (const sha of created) this.uploaded?.add(sha);
  }
}
