/**
 * The browser's lazy loaders (src/browser/lazy/) load the very modules the eager ones hold — DocumentStore's
 * features (src/document/features.ts) and RemoteApiRefStore's (src/stores/remote-api/features.ts): one loader
 * per piece, the same module behind each — and the lazy `docdb/browser` functions answer as the eager ones.
 * So results cannot differ between the browser bundle and Node, only when the code loads.
 */
import { describe, expect, it } from 'vitest';
import * as eagerFunctions from '../../src/browser/functions.js';
import { features as lazy } from '../../src/browser/lazy/features.js';
import * as lazyFunctions from '../../src/browser/lazy/functions.js';
import { remoteApiFeatures as lazyRemote } from '../../src/browser/lazy/remote-api-features.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { features as eager } from '../../src/document/features.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { remoteApiFeatures as eagerRemote } from '../../src/stores/remote-api/features.js';

/** Each loader of `lazyLoaders` resolves to the module the eager loader of the same name gives. */
async function sameModules<T extends object>(lazyLoaders: T, eagerLoaders: T): Promise<void> {
  expect(Object.keys(lazyLoaders).sort()).toEqual(Object.keys(eagerLoaders).sort());
  for (const name of Object.keys(eagerLoaders) as (keyof T)[]) {
    const load = (loaders: T) => (loaders[name] as () => Promise<unknown>)();
    expect(await load(lazyLoaders), String(name)).toBe(await load(eagerLoaders));
  }
}

describe('lazy loaders', () => {
  it('DocumentStore features: the eager loaders, each resolving to the same module', async () => {
    await sameModules(lazy, eager);
  });

  it('RemoteApiRefStore features: the eager loaders, each resolving to the same module', async () => {
    await sameModules(lazyRemote, eagerRemote);
  });

  it('docdb/browser functions: the same names, the same answers and the same errors', async () => {
    expect(Object.keys(lazyFunctions).sort()).toEqual(Object.keys(eagerFunctions).sort());
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.declareIndexes([{ namespace: 'github', type: 'repo', fields: ['data.stars'] }]);
    const v1 = (await docs.put({ namespace: 'github', type: 'repo', id: 'o/a', data: { stars: 1 } })).version;
    const v2 = (await docs.put({ namespace: 'github', type: 'repo', id: 'o/b', data: { stars: 4 } })).version;
    const query = { namespace: 'github', type: 'repo', aggregate: 'sum' as const, field: 'data.stars' };
    const series = await lazyFunctions.typeSeries(store, query, [v1 as string, v2 as string]);
    expect(series.points.map((p) => p.value)).toEqual([1, 5]);
    expect(series).toEqual(await eagerFunctions.typeSeries(store, query, [v1 as string, v2 as string]));
    const transport = { request: async () => ({ status: 500, headers: {}, body: new Uint8Array() }) };
    const bad = { transport, repository: 'not a repository' };
    const lazyError = await lazyFunctions.projectRepository(bad).catch((e: unknown) => e);
    expect(lazyError).toMatchObject({ code: 'InvalidConfig', data: { field: 'repository' } });
    expect(lazyError).toEqual(await eagerFunctions.projectRepository(bad).catch((e: unknown) => e));
  });
});
