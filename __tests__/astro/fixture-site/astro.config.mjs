// The site __tests__/astro/astro-build.test.ts builds with the real `astro build`: copied into a temporary
// directory whose node_modules links `astro` and `docdb` (this checkout, resolved through its package.json
// `exports`, so `docdb/astro` is lib/astro/ as the package ships it).
import { defineConfig } from 'astro/config';

export default defineConfig({ cacheDir: './.astro-cache' });
