/** Types of scripts/build-browser.mjs (used by the browser tests and scripts/playground.ts). */
export declare const BUNDLE_GZIP_BUDGET: number;
export declare const ENTRY_GZIP_BUDGET: number;
export declare const INITIAL_GZIP_BUDGET: number;
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
/** `docdb/browser`: its entry (the BundleInfo fields), every chunk, and what a page downloads up front. */
export interface BrowserBundleInfo extends BundleInfo {
  /** Every input of the build (entry and chunks); `entryInputs` are the entry file's own. */
  entryInputs: string[];
  /** The entry file's modules and their minified bytes in it. */
  modules: Record<string, number>;
  /**
   * The chunks beside the entry, each with its modules and their minified bytes; `initial`: imported
   * statically by the entry or by such a chunk (downloaded with it).
   */
  chunks: (BundleInfo & { initial: boolean; modules: Record<string, number> })[];
  /** min+gzip of the entry and its `initial` chunks: what a page pays before its first call. */
  initialGzipBytes: number;
  /** min+gzip of the entry and every chunk. */
  totalGzipBytes: number;
}
export declare function buildBrowserBundle(outDir?: string): Promise<BrowserBundleInfo>;
export declare function buildGitHttpBundle(outDir?: string): Promise<BundleInfo>;
export declare function buildPlayground(outDir?: string): Promise<{ dir: string; files: string[]; inputs: string[] }>;
export declare const VIEWER_GZIP_BUDGET: number;
export declare function buildViewer(
  outDir?: string,
  options?: { apiUrl?: string },
): Promise<{ dir: string; jsGzipBytes: number; gzipBytes: number; inputs: string[] }>;
export declare function withApiUrl(html: string, apiUrl: string | undefined): string;
