import { performance } from 'node:perf_hooks';
import { MemoryRefStore } from '/work/wt/perf/src/stores/memory/memory-refstore.js';

const store = new MemoryRefStore();
await store.commit(Array.from({ length: 1000 }, (_, i) => ({ op: 'put' as const, key: `d/${i}.json`, value: `${i}` })));
for (let r = 0; r < 3; r++) {
  const t = performance.now();
  for (let i = 0; i < 10000; i++) await store.get(`d/${i % 1000}.json`);
  console.log(((performance.now() - t) / 10000).toFixed(4), 'ms/get');
}
