/**
 * Child process of the bench: serves Maildesk and the bare reference server side by side on
 * the same database (so that the load generator in the parent does not share their event
 * loop), or measures one start-up. Prints one JSON line on stdout.
 *   serve   <options json> [maildesk|bare] → {"maildesk": port, "bare": port} (or the one named), then runs until killed
 *   startup maildesk|bare <options>   → {"ms": time from opening the database to listening}
 */
import { startMaildesk } from '../server/start.js';
import { startBare } from './bare.js';
import { benchConfig, type BenchDatabase } from './data.js';

const [mode, ...rest] = process.argv.slice(2);

// npm start's log (LOG_LEVEL info: a line as each request ends), through the same asynchronous
// destination, is written to /dev/null: its cost is part of the figure, and standard output
// carries this process's answer. BENCH_LOG=off measures without it.
const logToNowhere = process.env.BENCH_LOG === 'off' ? undefined : { level: 'info', destination: '/dev/null' };

/** As `npm start` does it (server/main.ts): the log at its default level, the job workers started once the app listens. */
async function maildesk(database: BenchDatabase) {
  const started = await startMaildesk(benchConfig(database), { deferJobs: true, logger: logToNowhere });
  await started.app.listen({ port: 0, host: '127.0.0.1' });
  return started;
}

async function bare(database: BenchDatabase) {
  const app = await startBare(database);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

const portOf = (app: { server: { address(): unknown } }) => (app.server.address() as { port: number }).port;

if (mode === 'serve') {
  const database = JSON.parse(rest[0]) as BenchDatabase;
  const only = rest[1] as 'maildesk' | 'bare' | undefined;
  const a = only === 'bare' ? undefined : await maildesk(database);
  const b = only === 'maildesk' ? undefined : await bare(database);
  await a?.startJobs();
  console.log(JSON.stringify({ ...(a ? { maildesk: portOf(a.app) } : {}), ...(b ? { bare: portOf(b) } : {}) }));
  process.on('SIGTERM', async () => {
    await Promise.all([a?.close(), b?.close()]);
    process.exit(0);
  });
} else if (mode === 'startup') {
  const [which, options] = rest;
  const database = JSON.parse(options) as BenchDatabase;
  const t = process.hrtime.bigint();
  const started = which === 'maildesk' ? await maildesk(database) : await bare(database);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if ('startJobs' in started) await started.startJobs();
  await started.close();
  console.log(JSON.stringify({ ms }));
  process.exit(0);
} else {
  throw new Error(`unknown mode ${mode}`);
}
