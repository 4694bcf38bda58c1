#!/usr/bin/env node
// Installed CLI entry: runs the compiled CLI from lib/ (built by `npm ci`/`npm install` through the
// package's `prepare` script, and shipped prebuilt in the npm package).
let cli;
try {
  cli = await import('../lib/cli/main.js');
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('lib/cli/main.js')) throw e;
  console.error('docdb: lib/ is not built. Run "npm ci" (or "npm run build:lib") in the docdb checkout.');
  process.exit(1);
}
process.exitCode = await cli.main(process.argv.slice(2));
