/**
 * The JSON body of one `POST /git/trees` request, written as bytes while its entries are added:
 * `{"base_tree":"…","tree":[{"path":…,"mode":…,"type":"blob","content":…}, …]}`. Each value's bytes
 * are copied in with JSON's escapes as its entry is added: a document encoded once (by the document
 * layer) is never decoded to a string and encoded again, and no megabyte-sized body string is built and
 * then encoded (such strings go straight to V8's large-object space and stay there until a full
 * collection: a 100,000-document write made 130 MB of them).
 * https://docs.github.com/rest/git/trees#create-a-tree
 */

const encoder = new TextEncoder();

/**
 * @example
 * const body = new TreeBodyWriter(baseTree, 1 << 20);
 * body.addContent('a.json', '100644', utf8('{}\n'));
 * body.addSha('b.json', '100644', null); // delete
 * await send(body.finish());
 */
export class TreeBodyWriter {
  private buf: Uint8Array;
  private at = 0;
  private count = 0;

  /** `expectedBytes`: about how much content will be added (the buffer grows if needed). */
  constructor(baseTree: string | null, expectedBytes: number) {
    this.buf = new Uint8Array(Math.ceil(expectedBytes * 1.1) + 4096);
    this.ascii(baseTree === null ? '{"tree":[' : `{"base_tree":"${baseTree}","tree":[`);
  }

  /** Entries written so far. */
  get entries(): number {
    return this.count;
  }

  /**
   * An entry with inline content (valid UTF-8, no NUL): its bytes are copied into the body with JSON's
   * escapes, never decoded to a string and encoded again.
   */
  addContent(path: string, mode: string, bytes: Uint8Array): void {
    this.open(path, mode);
    this.ascii(',"content":"');
    this.room(bytes.length * 6 + 2); // worst case: every byte a \u00XX escape
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i] as number;
      if (b >= 0x20 && b !== 0x22 && b !== 0x5c)
        buf[at++] = b; // as is (UTF-8 sequences included)
      else at = escapeByte(buf, at, b);
    }
    this.at = at;
    this.ascii('"}');
  }

  /** An entry naming an existing blob by SHA, or deleting the path (`null`). */
  addSha(path: string, mode: string, sha: string | null): void {
    this.open(path, mode);
    this.ascii(sha === null ? ',"sha":null}' : `,"sha":"${sha}"}`);
  }

  /** Close the body; its bytes (a view of exactly the written part). */
  finish(): Uint8Array {
    this.ascii(']}');
    return this.buf.subarray(0, this.at);
  }

  private open(path: string, mode: string): void {
    this.ascii(this.count++ === 0 ? '{"path":' : ',{"path":');
    this.text(JSON.stringify(path));
    // 040000 names a directory (deleted whole: delete-collapse.ts); GitHub checks type against mode.
    this.ascii(`,"mode":"${mode}","type":"${mode === '040000' ? 'tree' : 'blob'}"`);
  }

  /** Append JSON text (already escaped: a path) as UTF-8. */
  private text(s: string): void {
    this.room(s.length * 3); // the most UTF-8 bytes one UTF-16 unit can take
    this.at += encoder.encodeInto(s, this.buf.subarray(this.at)).written;
  }

  /** Append ASCII without going through the encoder. */
  private ascii(s: string): void {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.at++] = s.charCodeAt(i);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }
}

const HEX = '0123456789abcdef';

/** Write the JSON escape of `"`, `\\` or a control byte at `at`; the position after it. */
function escapeByte(buf: Uint8Array, at: number, b: number): number {
  buf[at++] = 0x5c; // backslash
  if (b === 0x22 || b === 0x5c) buf[at++] = b;
  else if (b === 0x0a)
    buf[at++] = 0x6e; // \n
  else if (b === 0x09)
    buf[at++] = 0x74; // \t
  else if (b === 0x0d)
    buf[at++] = 0x72; // \r
  else {
    buf[at++] = 0x75; // \u00XX
    buf[at++] = 0x30;
    buf[at++] = 0x30;
    buf[at++] = HEX.charCodeAt(b >> 4);
    buf[at++] = HEX.charCodeAt(b & 15);
  }
  return at;
}
