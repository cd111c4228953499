/** `npm start`: serves Maildesk on one port and says how to sign in. */
import { loadConfig } from './config.js';
import { DatabaseNewerThanCode } from './db/migrate.js';
import { startMaildesk } from './start.js';

let close: (() => Promise<void>) | undefined;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down…`);
    await close?.();
    process.exit(0);
  });
}

const config = loadConfig();
const level = process.env.LOG_LEVEL || 'info';
const maildesk = await startMaildesk(config, { logger: level !== 'silent' && { level }, deferJobs: true }).catch((error: Error) => {
  // A database newer than this code, or one that cannot be reached: say so plainly, and stop.
  console.error(`Maildesk did not start: ${error instanceof DatabaseNewerThanCode ? error.message : (error.stack ?? error.message)}`);
  process.exit(1);
});
const { app, firstOperator, services } = maildesk;
close = maildesk.close;
const address = await app.listen({ port: config.port, host: config.host });
await maildesk.startJobs();

const where = services.dialect === 'sqlite' ? services.database.sqlitePath : 'PostgreSQL (DATABASE_URL)';
console.log(`\nMaildesk is running at ${address}  (database: ${where})`);
// With PORT=0 the port is known only now.
const base = process.env.PUBLIC_URL ? config.publicUrl : address;
console.log(`Operator area: ${base}/login-manage   Customer area: ${base}/login`);
if (firstOperator) {
  console.log(`\nFirst operator created. Sign in as "${firstOperator.username}" with password: ${firstOperator.password}`);
  if (firstOperator.generated) console.log('(generated now and shown only once: set ADMIN_PASSWORD to choose it)');
  console.log(
    `  curl -s -X POST ${base}/api/manage/login/login -H 'Content-Type: application/json' -d '{"username":"${firstOperator.username}","password":"…"}'`,
  );
} else {
  console.log('Operators already exist: sign in with yours.');
}
if (!config.smtpUrl) console.log(`Outgoing mail is written to ${config.dataDir}/outbox (set SMTP_URL to send it).`);
console.log('Press Ctrl-C to stop.');
