/**
 * `commits()` keeps the section's listed commits in the cache: a page that shows recent commits and
 * then lists the section at one of them (the viewer's overview, issue 29) pays the tree listing only —
 * not a `GET /git/commits/<sha>` first.
 */
import { describe, expect, it } from 'vitest';
import { emulatorPerFile, ops, store } from './helpers.js';

const fx = emulatorPerFile();

describe('commits() feeds the commit cache', () => {
  it('head, commits, then list at the tip or an older version: the tree listing only', async () => {
    const writer = store(fx.em, fx.repo);
    await writer.put('a/b/1.json', '{"n":1}');
    const older = (await writer.put('a/b/2.json', '{"n":2}')).version as string;
    const tip = (await writer.put('a/b/3.json', '{"n":3}')).version as string;
    const reader = store(fx.em, fx.repo);
    expect(await reader.head()).toBe(tip);
    const { entries } = await (reader.commits?.({ limit: 5 }) ?? Promise.reject(new Error('no commits()')));
    expect(entries.map((e) => e.version).slice(0, 2)).toEqual([tip, older]);
    for (const [version, keys] of [
      [tip, ['a/b/1.json', 'a/b/2.json', 'a/b/3.json']],
      [older, ['a/b/1.json', 'a/b/2.json']],
    ] as const) {
      const from = fx.em.requests.length;
      const listed = await reader.list({ version });
      expect(listed.entries.map((e) => e.key)).toEqual(keys);
      // Without the commits in the cache: `GET git/get-commit` before the tree.
      expect(ops(fx.em, from)).toEqual(['GET git/get-tree 200']);
    }
  });
});
