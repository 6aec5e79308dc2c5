#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx qfill` works right after `npm ci` with no build.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
// Exit even if a library left a handle open; unref'd so a clean exit is not delayed.
setTimeout(() => process.exit(), 1000).unref();
