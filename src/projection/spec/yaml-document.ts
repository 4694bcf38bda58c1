/**
 * The spec's YAML document with its line counter, so every problem can point at a line and column: the
 * value itself for a bad scalar (so "must be one of" points at the bad value), the key of a mapping or
 * list value, or — when a field is missing — the key of its deepest existing ancestor.
 */
import { isMap, isScalar, LineCounter, type Node, parseDocument, visit } from 'yaml';

export interface Position {
  line: number;
  column: number;
}

/**
 * @example
 * const yaml = new SpecYaml('projections:\n  repos: {}\n');
 * yaml.locate(['projections', 'repos']); // { line: 2, column: 3 }
 */
export class SpecYaml {
  private readonly lineCounter = new LineCounter();
  readonly doc: ReturnType<typeof parseDocument>;

  constructor(text: string) {
    this.doc = parseDocument(text, { lineCounter: this.lineCounter, prettyErrors: false, uniqueKeys: true });
  }

  /** Line and column (1-based) of a character offset. */
  pos(offset: number): Position {
    const p = this.lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  }

  /** Position of the key `path[i]` in its parent map, when the parent is a map. */
  keyPos(path: readonly PropertyKey[]): Position | undefined {
    if (path.length === 0) return undefined;
    const parent = (path.length === 1 ? this.doc.contents : this.doc.getIn(path.slice(0, -1) as unknown[], true)) as
      | Node
      | undefined;
    if (!parent || !isMap(parent)) return undefined;
    const pair = parent.items.find((it) => (it.key as { value?: unknown } | null)?.value === path[path.length - 1]);
    const keyNode = pair?.key as Node | undefined;
    return keyNode?.range ? this.pos(keyNode.range[0]) : undefined;
  }

  /**
   * Where to point for a problem at `path` (or at its child `key`, e.g. an unknown field): a scalar value
   * itself, the key of a mapping or list value, or the key of the deepest existing ancestor.
   */
  locate(path: readonly PropertyKey[], key?: string): Position {
    if (key !== undefined) {
      const k = this.keyPos([...path, key]);
      if (k) return k;
    }
    for (let n = path.length; n >= 0; n--) {
      const sub = path.slice(0, n);
      const node = (sub.length === 0 ? this.doc.contents : this.doc.getIn(sub as unknown[], true)) as Node | undefined;
      if (!node) continue;
      if (n === path.length && isScalar(node) && node.range) return this.pos(node.range[0]);
      const k = this.keyPos(sub);
      if (k) return k;
      if (node.range) return this.pos(node.range[0]);
    }
    return { line: 1, column: 1 };
  }

  /** Position of the first alias (`*name`): where an alias expansion starts. */
  firstAlias(): Position {
    let at: Position = { line: 1, column: 1 };
    visit(this.doc, {
      Alias: (_, node) => {
        if (node.range) at = this.pos(node.range[0]);
        return visit.BREAK;
      },
    });
    return at;
  }

  /** The keys of the `projections` mapping with their positions (none when it is not a mapping). */
  projectionKeys(): { name: unknown; at: Position | undefined }[] {
    const projections = isMap(this.doc.contents) ? this.doc.contents.get('projections', true) : undefined;
    if (!isMap(projections)) return [];
    return projections.items.map((pair) => {
      const key = pair.key as Node | null;
      return { name: isScalar(key) ? key.value : undefined, at: key?.range ? this.pos(key.range[0]) : undefined };
    });
  }
}
