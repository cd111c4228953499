/**
 * `maildesk import postfixadmin --source URL --map domain=customer … [--dry-run]`: the same dry
 * run and import as the operators' wizard, for the command line. A customer is named by id or
 * by e-mail; the report is printed as JSON; the import runs in this process (a server's worker
 * that finds the run taken leaves it alone) and prints its progress.
 */
import { messageText } from '../../resources/messages.js';
import { systemOrigin } from '../core/audit.js';
import { defineCommand, type RunningMaildesk } from '../core/command.js';
import type { Services } from '../core/services.js';
import type { DomainChoice } from './postfixadmin-plan.js';
import { dryRunPostfixAdmin, startPostfixAdminImport } from './postfixadmin-import.js';
import { findRunById, work } from './runs.js';

const usage = 'usage: maildesk import postfixadmin --source mysql://user:password@host/postfixadmin --map example.org=customer@example.com [--map …] [--dry-run]';

export function parseCliArguments(argv: string[]) {
  const args = argv[0] === 'import' ? argv.slice(1) : argv;
  if (args[0] === 'postfixadmin') args.shift();
  let source = '';
  let dryRun = false;
  const maps: { domain: string; customer: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => args[++i] ?? '';
    if (arg === '--source') source = value();
    else if (arg.startsWith('--source=')) source = arg.slice(9);
    else if (arg === '--map' || arg.startsWith('--map=')) {
      const pair = arg === '--map' ? value() : arg.slice(6);
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`--map takes domain=customer, not "${pair}"\n${usage}`);
      maps.push({ domain: pair.slice(0, at).toLowerCase(), customer: pair.slice(at + 1) });
    } else if (arg === '--dry-run') dryRun = true;
    else throw new Error(`unknown argument "${arg}"\n${usage}`);
  }
  if (!source) throw new Error(`--source is required\n${usage}`);
  return { source, dryRun, maps };
}

async function choicesOf(services: Services, maps: { domain: string; customer: string }[]): Promise<DomainChoice[]> {
  const choices: DomainChoice[] = [];
  for (const { domain, customer } of maps) {
    const row = await services.db
      .selectFrom('user')
      .select('id')
      .where('owner_id', 'is', null)
      .where(/^\d+$/.test(customer) ? 'id' : 'email', '=', /^\d+$/.test(customer) ? Number(customer) : customer.toLowerCase())
      .executeTakeFirst();
    if (!row) throw new Error(`no customer "${customer}" (for ${domain})`);
    choices.push({ domain, customer_id: Number(row.id) });
  }
  return choices;
}

/**
 * The CLI's entry: argv after `maildesk` (`import postfixadmin --source … --map …`), on
 * Maildesk started by the command line as `npm start` starts it. Answers the process's exit code.
 */
export async function runPostfixAdminImportFromCli(
  argv: string[],
  options: { startMaildesk: () => Promise<RunningMaildesk>; print?: (line: string) => void; locale?: 'en' | 'zh' },
): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  let parsed: ReturnType<typeof parseCliArguments>;
  try {
    parsed = parseCliArguments(argv);
  } catch (error) {
    print(String(error instanceof Error ? error.message : error));
    return 2;
  }
  const maildesk = await options.startMaildesk();
  const { services } = maildesk;
  try {
    const choices = await choicesOf(services, parsed.maps);
    if (parsed.dryRun) {
      print(JSON.stringify(await dryRunPostfixAdmin(services.db, parsed.source, choices), null, 2));
      return 0;
    }
    const run = await startPostfixAdminImport({ ...systemOrigin('cli'), services }, parsed.source, choices);
    print(`import ${run.id}: ${run.total} items from ${run.source}`);
    await work(services, run.id, (done, total) => print(`${done}/${total}`));
    const finished = await findRunById(services, run.id);
    print(JSON.stringify({ id: finished.id, state: finished.state, created: finished.created, conflicts: finished.report.conflicts.length }, null, 2));
    return finished.state === 'done' ? 0 : 1;
  } catch (error) {
    // The API's message keys (a source that cannot be read, …) in the terminal's language.
    const e = error as { message?: string; params?: Record<string, unknown> };
    const why = e.message && /^(error|validation)\./.test(e.message) ? messageText(options.locale ?? 'en', e.message, e.params) : (e.message ?? String(error));
    print(`${options.locale === 'zh' ? '导入失败：' : 'import failed: '}${why}`);
    return 1;
  } finally {
    await maildesk.close();
  }
}

/** `maildesk import postfixadmin …` in the command line's list (server/operations/command-line.ts). */
export const importCommand = defineCommand({
  name: 'import postfixadmin',
  usage: '--source URL --map DOMAIN=CUSTOMER [--map …] [--dry-run]',
  summary: {
    en: 'Move a PostfixAdmin installation in (its database, read-only): domains, mailboxes with their password hashes, aliases, alias domains, out-of-office',
    zh: '迁入 PostfixAdmin（只读其数据库）：域名、邮箱（保留密码哈希）、别名、别名域名、自动回复',
  },
  details: {
    en: 'URL: mysql://user:password@host/postfixadmin or postgres://…. CUSTOMER: a customer\'s id or e-mail. --dry-run prints what would be created and every conflict, and changes nothing; a second import changes nothing.',
    zh: 'URL：mysql://用户:密码@主机/postfixadmin 或 postgres://…。CUSTOMER：客户的编号或邮箱。--dry-run 只列出将创建的内容和所有冲突，不做任何更改；重复导入不会改变任何内容。',
  },
  run: (args, ctx) => runPostfixAdminImportFromCli(args, { startMaildesk: ctx.startMaildesk, print: (line) => ctx.say(line), locale: ctx.locale }),
});
