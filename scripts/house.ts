/**
 * The house rules of src/ (issue 19): files over 500 lines, functions over 100 lines, import cycles.
 * `npx tsx scripts/house.ts` prints what breaks them (and files over 400 / functions over 80 as hints);
 * __tests__/house/structure.test.ts fails on the hard limits.
 */
import { functionSizes, importCycles, lineCount, sourceFiles } from '../__tests__/house/structure.js';

const root = process.cwd();
const files = sourceFiles(`${root}/src`);
const rel = (f: string) => f.slice(root.length + 1);
console.log('files over 400 lines (limit 500):');
for (const f of files) if (lineCount(f) > 400) console.log(`  ${lineCount(f)} ${rel(f)}`);
console.log('functions over 80 lines (limit 100):');
for (const f of files)
  for (const s of functionSizes(f, root)) if (s.lines > 80) console.log(`  ${s.lines} ${s.file} ${s.name}`);
console.log('import cycles:');
for (const c of importCycles(files, root)) console.log(`  ${c.length} files: ${c.join(' ')}`);
