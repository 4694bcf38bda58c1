/**
 * Workspace globs for `type: files` (`data/**\/*.json`): `*` and `?` within a path segment, `**` for any
 * number of directories, `{a,b}` alternatives and `[abc]` classes. Walks only below the glob's literal
 * prefix, never follows symbolic links to directories, and skips `.git`.
 */

/**
 * A regular expression for a glob over `/`-separated relative paths.
 *
 * @example
 * globToRegExp('data/**\/*.json').test('data/a/b.json'); // true
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:[^/]*(?:/|$))*' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((a) =>
            a
              .replace(/[.+^$()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
          )
          .join('|')})`;
        i = end;
      }
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * The directory below which a glob can match (its segments before the first wildcard).
 *
 * @example
 * globBase('data/*\/x.json'); // 'data'
 */
export function globBase(glob: string): string {
  const parts = glob.split('/');
  const literal: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (/[*?{[]/.test(p)) break;
    literal.push(p);
  }
  return literal.join('/');
}
