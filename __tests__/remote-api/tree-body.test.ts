/** tree-body.ts: the create-tree body written entry by entry, content copied as bytes, is exactly the JSON of the same request. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TreeBodyWriter } from '../../src/stores/remote-api/tree-body.js';

const parse = (b: Uint8Array) => JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(b));

describe('TreeBodyWriter', () => {
  it('writes base_tree, inline content, SHAs and deletes as GitHub takes them', () => {
    const w = new TreeBodyWriter('a'.repeat(40), 8); // tiny: the buffer has to grow
    const text = '{\n  "q": "\\"é日😀\u2028\ufeff\t"\n}\n';
    w.addContent('x/a.json', '100644', new TextEncoder().encode(text));
    w.addSha('x/b.json', '100644', 'b'.repeat(40));
    w.addSha('x/"c".json', '100644', null);
    expect(w.entries).toBe(3);
    expect(parse(w.finish())).toEqual({
      base_tree: 'a'.repeat(40),
      tree: [
        { path: 'x/a.json', mode: '100644', type: 'blob', content: text },
        { path: 'x/b.json', mode: '100644', type: 'blob', sha: 'b'.repeat(40) },
        { path: 'x/"c".json', mode: '100644', type: 'blob', sha: null },
      ],
    });
    expect(parse(new TreeBodyWriter(null, 0).finish())).toEqual({ tree: [] });
  });

  it('property: the UTF-8 of any well-formed text (control characters included) round-trips through the body', () => {
    const text = fc.string({ unit: 'binary' }).filter((t) => t.isWellFormed());
    fc.assert(
      fc.property(fc.array(text, { maxLength: 20 }), (texts) => {
        const w = new TreeBodyWriter(null, 16);
        for (const [i, t] of texts.entries()) w.addContent(`k/${i}`, '100644', new TextEncoder().encode(t));
        expect(parse(w.finish()).tree.map((e: { content: string }) => e.content)).toEqual(texts);
      }),
      { numRuns: 100 },
    );
  });
});
