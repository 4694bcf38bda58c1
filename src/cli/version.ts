/** The package version, read from package.json next to src/ (tsx) or lib/ (installed). */
import { readFileSync } from 'node:fs';

/** The docdb package version, e.g. `0.1.0`. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
