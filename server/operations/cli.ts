#!/usr/bin/env node
/** `npx maildesk …` (package.json bin): the command line of this installation. */
import { capabilities } from '../capabilities.js';
import { runCommandLine } from './command-line.js';

const status = await runCommandLine(capabilities, process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
// Pools and timers of a command are closed by it; exit now rather than wait for a straggler.
process.exit(status);
