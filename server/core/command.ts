/**
 * A command of `maildesk` (the command line, server/operations/cli.ts): a capability lists its
 * own in its manifest (`commands`), the way it lists its calls and jobs; the command line
 * offers every one, with its help in both languages.
 */
import type { Config } from '../config.js';
import type { Services } from './services.js';

export type CommandLocale = 'en' | 'zh';

/** A text in both languages. */
export interface Words {
  en: string;
  zh: string;
}

export interface CommandContext {
  /** The environment npm start reads (DATA_DIR, DATABASE_URL, …), already read. */
  config: Config;
  env: NodeJS.ProcessEnv;
  locale: CommandLocale;
  /** A line for the person at the terminal (standard output). */
  say(words: Words | string): void;
  /** A line on standard error. */
  warn(words: Words | string): void;
  /**
   * Maildesk started as npm start starts it, without its job workers, for a command that runs
   * use cases (their jobs, mail, files). Given by the command line, which sits above the app:
   * a capability's command cannot import the start-up that imports the capabilities.
   */
  startMaildesk(): Promise<RunningMaildesk>;
}

export interface RunningMaildesk {
  services: Services;
  close(): Promise<void>;
}

export interface Command {
  /** The words typed after `maildesk`: "backup", "operator create". */
  name: string;
  /** What follows them, for the help: "FILE", "USERNAME [--role ROLE]". */
  usage?: string;
  summary: Words;
  /** More help, shown by `maildesk <command> --help`. */
  details?: Words;
  /** The exit status: 0 done, anything else failed (the command said why). */
  run(args: string[], ctx: CommandContext): Promise<number>;
}

export const defineCommand = (command: Command): Command => command;
