#!/usr/bin/env node
// Installed CLI entry: runs the compiled CLI from lib/ (npm run build:lib).
import { main } from '../lib/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
