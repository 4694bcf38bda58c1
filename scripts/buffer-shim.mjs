// Injected into the git-http browser bundle only (scripts/build-browser.mjs): isomorphic-git refers to
// Node's global `Buffer`; esbuild rewrites those references to this import, leaving globalThis alone.
export { Buffer } from 'buffer';
