/**
 * Mutation testing with StrykerJS, one folder at a time, outside CI (it is CPU-heavy):
 *
 *   npm run mutate -- server/api-keys
 *   MUTATE_TESTS=tests/api/second-factors.test.ts,tests/api/passkeys.test.ts npm run mutate -- server/security
 *   MUTATE_AGAIN=server/reports/mime.ts:20-50,server/reports/views.ts:140-146 npm run mutate -- server/reports
 *
 * The folder's TypeScript is mutated; each mutant runs against the tests that reached it (per-test
 * coverage). The tests are the folder's own test files by name (server/api-keys → tests/api/api-keys*.test.ts,
 * src/apiKeys → tests/web/**\/apiKeys*.test.tsx) and those named in alsoNamed, MUTATE_TESTS when given, otherwise its whole
 * vitest project ('api' for server/ and resources/, 'web' for src/), run through
 * stryker.vitest.config.ts. The report is written to reports/mutation/ (html and json); the
 * sandboxes to .stryker-tmp/ (both ignored by git).
 *
 * Code that runs on one database only is reached by that database's run: run it again with
 * DATABASE_URL (the report gets "-postgres"), and `npm run mutate:score -- <folder>` counts a mutant
 * killed when either run killed it.
 */
import fs from 'node:fs';
import path from 'node:path';

const folder = (process.env.MUTATE_FOLDER ?? '').replace(/\/+$/, '');
if (!folder || !fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
  throw new Error(`Name the folder to mutate: npm run mutate -- server/api-keys (got "${folder}")`);
}

const web = folder === 'src' || folder.startsWith('src/');
const tests = web ? 'tests/web' : 'tests/api';
// Test files named otherwise that test a folder's rules (found by the helpers who wrote its tests).
const alsoNamed = {
  'server/mail': ['domains', 'aliases', 'sieve-rules', 'password-schemes', 'team-domains', 'authorization'],
  'server/imports': ['postfixadmin-source', 'mail-copy'],
  'server/security': ['second-factor', 'passkeys', 'confirm-identity', 'sign-in-throttle', 'totp-at-rest', 'signed-in', 'customer-sign-in', 'sessions'],
};
const names = [path.basename(folder), ...(alsoNamed[folder] ?? [])];
const byName = fs
  .readdirSync(tests, { recursive: true })
  .map(String)
  .filter((file) => /\.test\.tsx?$/.test(file) && names.some((name) => path.basename(file).startsWith(name)))
  .map((file) => `${tests}/${file}`);
const testFiles = process.env.MUTATE_TESTS ? process.env.MUTATE_TESTS.split(',').map((file) => file.trim()) : byName;

// With DATABASE_URL the tests run on PostgreSQL: a report of its own, which stryker.score.mjs counts with SQLite's.
// MUTATE_AGAIN: only these places again (file:start-end line ranges, comma-separated: the survivors' lines after new tests;
// a mutant spanning lines is run again only when all its lines are in a range), into a report of its own
// ("-again-<time>"), which stryker.score.mjs counts with the full run's: minutes instead of the folder's hour.
const again = (process.env.MUTATE_AGAIN ?? '').split(',').map((place) => place.trim()).filter(Boolean);
const stamp = new Date().toISOString().slice(0, 19).replace(/\D/g, '');
const report = `reports/mutation/${folder.replaceAll('/', '-')}${process.env.DATABASE_URL ? '-postgres' : ''}${again.length ? `-again-${stamp}` : ''}`;

// Read by stryker.vitest.config.ts in Stryker's test runner processes, which inherit this environment.
process.env.STRYKER_VITEST_PROJECT = web ? 'web' : 'api';
process.env.STRYKER_TEST_FILES = testFiles.join(',');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'stryker.vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: again.length ? again : [`${folder}/**/*.{ts,tsx}`],
  concurrency: 2,
  tempDirName: '.stryker-tmp',
  // Only what a test run needs goes into the sandboxes.
  ignorePatterns: ['/bench', '/docs', '/dist', '/test-results', '/data'],
  disableTypeChecks: '{server,src,resources}/**/*.{ts,tsx}',
  // Each API test file starts the app on its own database: a dry run of many takes minutes.
  dryRunTimeoutMinutes: 60,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${report}.html` },
  jsonReporter: { fileName: `${report}.json` },
  clearTextReporter: { allowEmojis: false, logTests: false, reportMutants: true, reportScoreTable: true },
  thresholds: { high: 90, low: 75, break: null },
};
