/** What the commands share: the database as npm start opens it, and their options. */
import type { CommandContext } from '../core/command.js';
import { openDatabase, type DatabaseHandle } from '../db/index.js';
import { migrateToLatest } from '../db/migrate.js';

/** The database of this installation, brought up to date as `npm start` would (and refused if newer than this code). */
export async function openForCommand(ctx: Pick<CommandContext, 'config'>): Promise<DatabaseHandle> {
  const database = openDatabase(ctx.config);
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Runs `work` on the installation's database (openForCommand), closing it however `work` ends. */
export async function withDatabase<T>(ctx: Pick<CommandContext, 'config'>, work: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = await openForCommand(ctx);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** The value after `--name` (`--role support`), or undefined. */
export function optionOf(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
