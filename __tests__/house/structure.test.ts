/**
 * The house rules of src/ (issue 19), checked on every run: no file over 500 lines, no function over 100
 * lines, no import cycle among src/ files (type-only and dynamic imports count). `npx tsx scripts/house.ts`
 * prints the same measurements, with earlier hints (files over 400, functions over 80).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionSizes, importCycles, lineCount, sourceFiles } from './structure.js';

const ROOT = resolve(import.meta.dirname, '../..');
const files = sourceFiles(`${ROOT}/src`);

describe('src/ house rules', () => {
  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(100);
  });
  it('no file over 500 lines', () => {
    const big = files.filter((f) => lineCount(f) > 500).map((f) => `${f.slice(ROOT.length + 1)}: ${lineCount(f)}`);
    expect(big).toEqual([]);
  });
  it('no function over 100 lines', () => {
    const long = files
      .flatMap((f) => functionSizes(f, ROOT))
      .filter((s) => s.lines > 100)
      .map((s) => `${s.file} ${s.name}: ${s.lines}`);
    expect(long).toEqual([]);
  });
  it('no import cycle', () => {
    expect(importCycles(files, ROOT)).toEqual([]);
  });
  it('the checks see what they guard against (a cycle, a long function)', () => {
    const fixtures = resolve(import.meta.dirname, 'fixtures');
    const fixtureFiles = sourceFiles(fixtures);
    expect(importCycles(fixtureFiles, fixtures)).toEqual([['a.ts', 'b.ts']]);
    expect(functionSizes(`${fixtures}/b.ts`, fixtures).find((s) => s.name === 'long')?.lines).toBe(104);
  });
});
