/** Types of scripts/build-lib.mjs (used by __tests__/package/build-lib.test.ts). */
export declare const BUILD_INPUTS: string[];
export declare const STAMP: string;
export declare function inputsFingerprint(root: string): string;
export declare function staleReason(root: string): string | null;
export declare function ensureLib(
  root: string,
  build: () => void,
  options?: { force?: boolean; log?: (line: string) => void },
): { built: boolean; reason: string | null };
