/**
 * The feed's XML writer (src/export/feed/xml.ts) and renderer (atom.ts) on their own: every character XML 1.0
 * forbids is replaced, markup is escaped, and a feed of random text from the whole of Unicode — lone surrogates,
 * C0 controls, U+FFFE, `]]>`, quotes — in commit subjects, authors and document names is read by feedparser
 * (`bozo` 0) and xmllint alike.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/core/refstore.js';
import type { ChangedDocument } from '../../src/document/document-types.js';
import { renderFeed } from '../../src/export/feed/atom.js';
import { feedEntry } from '../../src/export/feed/entry.js';
import { readOwnFeed } from '../../src/export/feed/read-feed.js';
import { xmlChars, xmlEscape, xmlUnescape } from '../../src/export/feed/xml.js';
import { tempDir } from '../git/helpers.js';
import { parseFeed, xmllint } from './feed-fixture.js';

const tmp = tempDir('docdb-feed-xml-');
afterAll(() => tmp.cleanup());

describe('xmlChars / xmlEscape', () => {
  it('replaces every character XML 1.0 forbids, and only those', () => {
    for (let c = 0; c < 0x20; c++) {
      const ch = String.fromCharCode(c);
      expect(xmlChars(`a${ch}b`)).toBe(c === 0x09 || c === 0x0a || c === 0x0d ? `a${ch}b` : 'a\ufffdb');
    }
    expect(xmlChars('\ufffe\uffff')).toBe('\ufffd\ufffd');
    expect(xmlChars('\ud800x\udc00')).toBe('\ufffdx\ufffd'); // unpaired surrogates
    expect(xmlChars('\ud83d\ude00 \u007f \u0085 é')).toBe('\ud83d\ude00 \u007f \u0085 é'); // a pair, and allowed controls
  });

  it('escapes markup, so neither a tag nor a CDATA end survives; xmlUnescape reverses it', () => {
    const text = `<script>alert("x")</script> ]]> & 'q'`;
    expect(xmlEscape(text)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt; &amp; &apos;q&apos;');
    expect(xmlUnescape(xmlEscape(text))).toBe(text);
    expect(xmlUnescape('&#60;&unknown;&amp;lt;')).toBe('&#60;&unknown;&lt;'); // no other entity expands
  });
});

describe('a feed of random text', () => {
  it('50 commits with random subjects, authors and document names: both readers read it, docdb reads it back', () => {
    // Any code point, with what breaks XML over-represented (a uniform code point is almost never a C0 control).
    const hostile = fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u001b',
      '\u000b',
      '\ufffe',
      '\uffff',
      '\ud800',
      '\udc00',
      '<',
      '&',
      ']]>',
      '"',
      "'",
    );
    const text = fc.string({
      unit: fc.oneof(hostile, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
      maxLength: 40,
    });
    const samples = fc.sample(fc.tuple(text, text, text, text, text), { numRuns: 50, seed: 41 });
    const sha = (i: number) => i.toString(16).padStart(40, 'a');
    const entries = samples.map(([subject, name, ns, type, id], i) => {
      const commit: HistoryEntry = {
        version: sha(i + 1),
        message: `${subject}\nbody`,
        author: { name, email: `${name}@example.com`, date: '2026-12-02T10:00:00Z' },
        committer: { name, email: 'c@example.com', date: new Date(Date.UTC(2026, 11, 2, 0, 50 - i)).toISOString() },
        parents: [sha(i + 2)],
      };
      const doc: ChangedDocument = { namespace: ns, doc_type: type, id, key: `${ns}/${type}/${id}.json` };
      return feedEntry(commit, { added: [doc], modified: [doc, doc], removed: [] });
    });
    const head = {
      section: 'octo/data refs/docdb/documents',
      ref: 'refs/docdb/documents',
      repository: 'octo/data',
      viewerUrl: 'https://octo.github.io/data/',
      limit: 50,
      commit: sha(1),
    };
    const xml = renderFeed(head, entries);
    const out = join(tmp.dir, 'random.xml');
    writeFileSync(out, xml);
    expect(xmllint(out)).toBe('');
    const parsed = parseFeed(out);
    expect(parsed.bozo_exception).toBeNull();
    expect(parsed.bozo).toBe(0);
    expect(parsed.entries).toHaveLength(50);
    expect(parsed.entries.map((e) => e.updated)).toEqual(entries.map((e) => e.updated));
    expect(new Set(parsed.entries.map((e) => e.id)).size).toBe(50);
    // What docdb keeps in the file reads back as the same entries (the next run reuses them).
    expect(readOwnFeed(xml)?.entries).toEqual(entries);
    expect(renderFeed(head, readOwnFeed(xml)?.entries ?? [])).toBe(xml);
  });
});
