/** Types of scripts/build-browser.mjs (used by the browser tests and scripts/playground.ts). */
export declare const BUNDLE_GZIP_BUDGET: number;
export declare const BROWSER_DEPENDENCIES: string[];
export interface BundleInfo {
  file: string;
  bytes: number;
  gzipBytes: number;
  inputs: string[];
}
export declare function buildBundle(
  entry: string,
  outfile: string,
  extra?: Record<string, unknown>,
): Promise<BundleInfo>;
export declare function buildBrowserBundle(outDir?: string): Promise<BundleInfo>;
export declare function buildGitHttpBundle(outDir?: string): Promise<BundleInfo>;
export declare function buildPlayground(outDir?: string): Promise<{ dir: string; files: string[]; inputs: string[] }>;
export declare const VIEWER_GZIP_BUDGET: number;
export declare function buildViewer(
  outDir?: string,
  options?: { apiUrl?: string },
): Promise<{ dir: string; jsGzipBytes: number; gzipBytes: number; inputs: string[] }>;
export declare function withApiUrl(html: string, apiUrl: string | undefined): string;
