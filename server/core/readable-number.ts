/**
 * The numbers people read out and quote (tickets, orders): short codes of letters and digits
 * without 0/O or 1/I, random, so that they say nothing about how many records there are.
 */
import crypto from 'node:crypto';
import type { Db } from '../db/index.js';

const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

export function readableNumber(): string {
  return [...crypto.randomBytes(8)].map((b) => alphabet[b % 32]).join('');
}

/** A number no row of the table has yet (its unique index is the last word). */
export async function freshNumber(db: Db, table: 'ticket' | 'shop_order'): Promise<string> {
  let number = readableNumber();
  while (await db.selectFrom(table).select('id').where('number', '=', number).executeTakeFirst()) number = readableNumber();
  return number;
}
