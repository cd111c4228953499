/**
 * The mutation score of one folder over both databases: `npm run mutate:score -- server/operations`.
 *
 * `npm run mutate -- <folder>` runs the tests on SQLite; with DATABASE_URL set, on PostgreSQL
 * (stryker.config.mjs names its report `<folder>-postgres`). Code that runs on one database only
 * (pg_dump, say) is reached by one of the two runs alone: a mutant counts as killed when either run
 * killed it. A run of some places again (MUTATE_AGAIN, reports "-again-<time>") counts the same way, mutant by
 * mutant, within the full run's count. Prints the score and every mutant left, file by file.
 */
import fs from 'node:fs';

const folder = (process.argv[2] ?? '').replace(/\/+$/, '');
const base = `reports/mutation/${folder.replaceAll('/', '-')}`;
// The full runs, and runs of some places again (MUTATE_AGAIN, after tests were added for what survived).
const name = base.split('/').at(-1);
const again = fs.existsSync('reports/mutation') ? fs.readdirSync('reports/mutation').filter((file) => new RegExp(`^${name}(-postgres)?-again-\\d+\\.json$`).test(file)).map((file) => `reports/mutation/${file}`) : [];
const runs = [`${base}.json`, `${base}-postgres.json`].filter((file) => fs.existsSync(file)).concat(again.sort());
if (!folder || runs.length === 0) {
  console.error(`No report for "${folder}": run npm run mutate -- ${folder || '<folder>'} first (and with DATABASE_URL for PostgreSQL).`);
  process.exit(2);
}

const detected = new Set(['Killed', 'Timeout']);
/** A mutant by its place and change (ids differ between a full run and a run of some places again). */
const keyOf = (file, m) => [file, m.location.start.line, m.location.start.column, m.location.end.line, m.location.end.column, m.mutatorName, m.replacement ?? ''].join(':');
const mutants = new Map();
for (const run of runs) {
  const report = JSON.parse(fs.readFileSync(run, 'utf8'));
  for (const [file, { mutants: list, source }] of Object.entries(report.files)) {
    const lines = source.split('\n');
    for (const m of list) {
      if (m.status === 'Ignored' || m.status === 'CompileError' || m.status === 'RuntimeError') continue;
      const key = keyOf(file, m);
      const seen = mutants.get(key);
      mutants.set(key, {
        file,
        line: m.location.start.line,
        what: `${m.mutatorName} → ${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 60)}`,
        code: lines[m.location.start.line - 1].trim().slice(0, 100),
        detected: (seen?.detected ?? false) || detected.has(m.status),
        status: seen && !detected.has(m.status) ? seen.status : m.status,
      });
    }
  }
}

const all = [...mutants.values()];
const left = all.filter((m) => !m.detected).sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
console.log(`${folder}: ${runs.map((r) => r.split('/').at(-1)).join(' + ')}`);
console.log(`${((100 * (all.length - left.length)) / all.length).toFixed(2)}% of ${all.length} mutants killed; ${left.length} left:`);
for (const m of left) console.log(`  ${m.file}:${m.line} ${m.status}: ${m.what}   | ${m.code}`);
