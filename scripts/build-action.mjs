#!/usr/bin/env node
/**
 * Bundle the GitHub Action (src/action/main.ts) with @vercel/ncc into one ESM file, dist/index.js,
 * plus dist/package.json {"type":"module"} so Node loads it as ESM whatever the consumer's setup.
 *
 *   node scripts/build-action.mjs            # writes dist/
 *   node scripts/build-action.mjs --out DIR  # writes DIR/ instead (used by scripts/check-dist.mjs)
 *
 * No source maps: the bundle is committed and diffed, so it stays deterministic and reviewable.
 * dist/licenses.txt lists the licence of every package bundled into dist/index.js (ncc's `license`
 * option), as their licences ask when the code is redistributed.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Build into `outDir`; returns the list of files written (relative to outDir). */
export async function buildAction(outDir = join(root, 'dist')) {
  const { default: ncc } = await import('@vercel/ncc');
  const entry = join(root, 'src/action/main.ts');
  const { code, assets } = await ncc(entry, {
    cache: false,
    minify: false,
    sourceMap: false,
    license: 'licenses.txt',
    quiet: true,
    target: 'es2022',
    transpileOnly: true,
    esm: true,
  });
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const files = ['index.js', 'package.json'];
  await writeFile(join(outDir, 'index.js'), code);
  await writeFile(join(outDir, 'package.json'), '{\n  "type": "module"\n}\n');
  for (const [name, asset] of Object.entries(assets ?? {})) {
    if (name === 'package.json') continue; // ncc may emit the entry's package scope; ours is written above
    await mkdir(dirname(join(outDir, name)), { recursive: true });
    await writeFile(join(outDir, name), asset.source);
    files.push(name);
  }
  return files.sort();
}

/** All files under `dir`, relative, sorted. */
export async function listFiles(dir, prefix = '') {
  const out = [];
  let entries;
  try {
    entries = await readdir(join(dir, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 ? resolve(process.argv[i + 1] ?? '') : join(root, 'dist');
  const started = Date.now();
  const files = await buildAction(out);
  console.log(`built ${files.map((f) => join(out, f)).join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
