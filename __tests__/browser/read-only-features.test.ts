/**
 * The viewer's build swaps DocumentStore's features seam for src/browser/read-only/features.ts: the viewer
 * reads only, so its one file leaves out the write kit and migrations. Checked here: the stand-in refuses a
 * write and a migration with a typed error (never writes without its checks), hands out the read pieces,
 * and the built viewer really holds neither write piece — and stays within its page-weight budget.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildViewer, VIEWER_GZIP_BUDGET } from '../../scripts/build-browser.mjs';
import { features } from '../../src/browser/read-only/features.js';
import { InvalidConfig } from '../../src/core/errors.js';

describe('read-only document features (the viewer build)', () => {
  it('refuses the write kit and migrations with InvalidConfig naming the seam', async () => {
    for (const load of [features.write, features.migrate]) {
      const err = await load().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidConfig);
      expect((err as InvalidConfig).data).toMatchObject({ field: 'features' });
      expect((err as Error).message).toMatch(/not in the viewer's build/);
    }
  });

  it('hands out the read pieces as they are', async () => {
    expect(typeof (await features.query()).queryDocuments).toBe('function');
    expect(typeof (await features.search()).searchDocuments).toBe('function');
    expect(typeof (await features.versions()).documentVersions).toBe('function');
  });
});

describe('the viewer bundle', () => {
  let dir: string;
  let viewer: Awaited<ReturnType<typeof buildViewer>>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docdb-viewer-'));
    viewer = await buildViewer(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('holds the read-only features, not the write kit, migrations or the schema validator', () => {
    const inputs = viewer.inputs.map((p) => relative(process.cwd(), p).replaceAll('\\', '/'));
    expect(inputs).toContain('src/browser/read-only/features.ts');
    expect(inputs).not.toContain('src/document/features.ts');
    const writing = inputs.filter((p) =>
      /^src\/document\/(write-kit|migrate\/|expect\/|schema\/check-schema)|@cfworker\/json-schema/.test(p),
    );
    expect(writing).toEqual([]);
  });

  it('is within the page-weight budget', () => {
    expect(viewer.gzipBytes).toBeLessThanOrEqual(VIEWER_GZIP_BUDGET);
  });
});
