/**
 * The one escaper for untrusted text printed to a terminal or a CI log (issue 27 §7): terminal control
 * sequences a git server, an API or a source could send, and workflow commands a runner would obey.
 */
import { describe, expect, it } from 'vitest';
import { mdText } from '../../src/action/summary.js';
import { inertText } from '../../src/core/terminal-text.js';
import { HOSTILE, RAW_CONTROL } from './hostile-text.js';

describe('inertText', () => {
  it('shows every control character as \\uXXXX and keeps the rest', () => {
    expect(inertText(HOSTILE.title)).toBe('\\u001B]0;pwned\\u0007');
    expect(inertText(HOSTILE.clear)).toBe('\\u001B[2J\\u001B[H');
    expect(inertText(HOSTILE.overwrite)).toBe('fine\\u000DALL GOOD');
    expect(inertText(HOSTILE.c1Csi)).toBe('\\u009B31m');
    expect(inertText(HOSTILE.bidi)).toBe('abc\\u202Efdp.exe');
    expect(inertText('\u0000\u0008\u000b\u000c\u007f\u0085\u200f')).toBe(
      '\\u0000\\u0008\\u000B\\u000C\\u007F\\u0085\\u200F',
    );
    expect(inertText('tabs\tand\nnewlines, ünïcödé, 日本語 stay')).toBe('tabs\tand\nnewlines, ünïcödé, 日本語 stay');
    for (const text of Object.values(HOSTILE)) expect(inertText(text)).not.toMatch(RAW_CONTROL);
  });

  it('a line that would be a workflow command is not one any more; elsewhere :: stays', () => {
    expect(inertText(HOSTILE.setOutput)).toBe('declined\n\\u003A:set-output name=version::0000');
    expect(inertText(HOSTILE.addMask)).toBe('x\n  \\u003A:add-mask::secret');
    expect(inertText(HOSTILE.oldCommand)).toBe('y\n\\u0023#[set-output name=a;]b');
    expect(inertText('::error::at the start')).toBe('\\u003A:error::at the start');
    expect(inertText('a::b, std::string')).toBe('a::b, std::string');
    // a \r cannot start a line for the runner either: it is escaped before lines are looked at
    expect(inertText('ok\r::add-mask::x')).toBe('ok\\u000D::add-mask::x');
    for (const text of [HOSTILE.setOutput, HOSTILE.addMask, HOSTILE.oldCommand]) {
      expect(
        inertText(text)
          .split('\n')
          .some((l) => /^\s*(::|##\[)/.test(l)),
      ).toBe(false);
    }
  });

  it('is idempotent, and JSON keeps its value', () => {
    for (const text of Object.values(HOSTILE)) expect(inertText(inertText(text))).toBe(inertText(text));
    const value = { message: `${HOSTILE.clipboard}${HOSTILE.c1Csi}${HOSTILE.bidi}`, n: 1 };
    const json = inertText(JSON.stringify(value));
    expect(json).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('the job summary shares the bidi set', () => {
    expect(mdText('abc\u202Efdp\u2066')).toBe('abc&#92;u202Efdp&#92;u2066');
  });
});
