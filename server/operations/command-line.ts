/**
 * The `maildesk` command line: every capability's commands (their manifests' `commands`), its
 * help in both languages (LANG, or --lang en|zh), and one command run with the environment
 * npm start reads.
 */
import type { Capability } from '../core/capability.js';
import type { Command, CommandContext, CommandLocale, Words } from '../core/command.js';
import { loadConfig } from '../config.js';
import { startMaildesk } from '../start.js';

export interface Terminal {
  out(line: string): void;
  err(line: string): void;
}

/** --lang wins; otherwise the locale's language (LC_ALL, LC_MESSAGES, LANG): Chinese for zh*, English for the rest. */
export function localeOf(args: string[], env: NodeJS.ProcessEnv): CommandLocale {
  const at = args.indexOf('--lang');
  const given = at >= 0 ? args[at + 1] : /^--lang=(.*)$/.exec(args.find((a) => a.startsWith('--lang=')) ?? '')?.[1];
  const wanted = given ?? env.LC_ALL ?? env.LC_MESSAGES ?? env.LANG ?? '';
  return /^zh/i.test(wanted) ? 'zh' : 'en';
}

/** The arguments without --lang and its value. */
const withoutLang = (args: string[]) => args.filter((a, i) => a !== '--lang' && args[i - 1] !== '--lang' && !a.startsWith('--lang='));

/** The command whose words the arguments start with (the longest: "operator create" before "operator"). */
export function findCommand(commands: Command[], args: string[]): { command: Command; rest: string[] } | undefined {
  const byLength = [...commands].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  for (const command of byLength) {
    const words = command.name.split(' ');
    if (words.every((w, i) => args[i] === w)) return { command, rest: args.slice(words.length) };
  }
  return undefined;
}

const texts = {
  title: { en: "maildesk — Maildesk's command line", zh: 'maildesk —— Maildesk 命令行' },
  usage: { en: 'Usage: maildesk <command> [arguments]   (--help on any command; --lang en|zh)', zh: '用法：maildesk <命令> [参数]   （任何命令均可加 --help；--lang en|zh 选择语言）' },
  environment: {
    en: 'It reads the environment npm start reads: DATA_DIR, DATABASE_URL, SMTP_URL, REDIS_URL, S3_*, … (docs/configuration.md).',
    zh: '它读取与 npm start 相同的环境变量：DATA_DIR、DATABASE_URL、SMTP_URL、REDIS_URL、S3_* 等（见 docs/configuration.md）。',
  },
  commands: { en: 'Commands:', zh: '命令：' },
  unknown: { en: 'Unknown command', zh: '未知命令' },
  failed: { en: 'Failed', zh: '失败' },
} satisfies Record<string, Words>;

export function helpText(commands: Command[], locale: CommandLocale): string {
  const heads = commands.map((c) => `${c.name}${c.usage ? ` ${c.usage}` : ''}`);
  const width = Math.min(Math.max(...heads.map((h) => h.length)) + 2, 48);
  const lines = commands.map((c, i) => (heads[i].length + 2 > width ? `  ${heads[i]}\n  ${''.padEnd(width)}${c.summary[locale]}` : `  ${heads[i].padEnd(width)}${c.summary[locale]}`));
  return [texts.title[locale], '', texts.usage[locale], texts.environment[locale], '', texts.commands[locale], ...lines, ''].join('\n');
}

function commandHelp(command: Command, locale: CommandLocale): string {
  return [`maildesk ${command.name}${command.usage ? ` ${command.usage}` : ''}`, '', command.summary[locale], ...(command.details ? ['', command.details[locale]] : []), ''].join('\n');
}

/** Runs the command line; returns the exit status. */
export async function runCommandLine(capabilities: readonly Capability[], argv: string[], env: NodeJS.ProcessEnv, terminal: Terminal): Promise<number> {
  const locale = localeOf(argv, env);
  const args = withoutLang(argv);
  const commands = capabilities.flatMap((c) => c.commands ?? []);
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
    terminal.out(helpText(commands, locale));
    return args.length === 0 ? 2 : 0;
  }
  const found = findCommand(commands, args);
  if (!found) {
    terminal.err(`${texts.unknown[locale]}: ${args.join(' ')}\n`);
    terminal.err(helpText(commands, locale));
    return 2;
  }
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    terminal.out(commandHelp(found.command, locale));
    return 0;
  }
  const pick = (words: Words | string) => (typeof words === 'string' ? words : words[locale]);
  const config = loadConfig(env);
  const ctx: CommandContext = {
    config,
    env,
    locale,
    say: (w) => terminal.out(pick(w)),
    warn: (w) => terminal.err(pick(w)),
    startMaildesk: () => startMaildesk(config, { deferJobs: true }),
  };
  try {
    return await found.command.run(found.rest, ctx);
  } catch (error) {
    terminal.err(`${texts.failed[locale]}: ${(error as Error).message}`);
    return 1;
  }
}
