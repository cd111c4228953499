#!/usr/bin/env node
/**
 * `npx maildesk …` in the installation's folder. npm links the commands of a project's
 * dependencies into node_modules/.bin, never the project's own `bin`, so this small package (a
 * `file:` dependency of the project) carries the name. It runs the built command line (dist/,
 * made by `npm start` or `npm run build`), or, before any build, the same code from source
 * through tsx (a development dependency).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = `${root}dist/server/operations/cli.js`;
if (existsSync(built)) {
  await import(built);
} else {
  let tsx;
  try {
    tsx = import.meta.resolve('tsx');
  } catch {
    console.error('Maildesk is not built yet: run `npm run build` (or `npm start` once) first.');
    process.exit(1);
  }
  const run = spawnSync(process.execPath, ['--import', tsx, `${root}server/operations/cli.ts`, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
