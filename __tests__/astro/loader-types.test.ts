/**
 * docdb/astro declares the part of Astro's loader API it uses (src/astro/context.ts) instead of importing astro,
 * which is not a dependency of docdb. This file holds it to Astro's own types (astro is a devDependency): it
 * type-checks (`tsc --noEmit -p .`) only while the loader is an Astro `Loader` and Astro's `LoaderContext` is
 * what the loader takes.
 */
import type { Loader, LoaderContext } from 'astro/loaders';
import { describe, expect, it } from 'vitest';
import type { DocdbLoaderContext } from '../../src/astro/index.js';
import { docdbLoader, LOADER_NAME } from '../../src/astro/index.js';

describe('docdb/astro against Astro’s types', () => {
  it('the loader is an Astro Loader; Astro’s LoaderContext is the context it takes', () => {
    const loader: Loader = docdbLoader({ repo: 'octo/data', namespace: 'notes', type: 'note' });
    const context = (c: LoaderContext): DocdbLoaderContext => c;
    expect(loader.name).toBe(LOADER_NAME);
    expect(typeof context).toBe('function');
  });
});
