/**
 * One slice of a copy: what the old server has that the mailbox has not yet received, copied for
 * at most `deadline`, folder by folder in UID order. How far each old folder has been copied is
 * kept in mail_copy_folder (UIDVALIDITY, last copied UID), so a second run, or a run after a
 * crash, starts where the last one ended. Messages go in batches: before a batch's APPENDs its last
 * UID is written as pending_uid, after them last_uid; the messages a crash may leave in doubt
 * (APPENDed, not yet recorded: those up to pending_uid) are looked for in the mailbox (Message-ID,
 * or size and date) before they are appended again. So is every message of a folder whose
 * UIDVALIDITY changed on the old server (its UIDs mean nothing any more).
 */
import type { FetchMessageObject, ImapFlow, ListResponse } from 'imapflow';
import { now } from '../../core/time.js';
import type { Db } from '../../db/index.js';
import { CopyFailure, detailOf } from './imap.js';

interface Message {
  uid: number;
  flags: string[];
  internalDate: Date;
  size: number;
  messageId?: string;
}

interface FolderPlan {
  path: string;
  target: string;
  uidValidity: number;
  messages: number;
  stateId?: number;
  /** Set before an APPEND that may or may not have happened. */
  pendingUid: number | null;
  /** Look for every message before appending it (the old folder's UIDVALIDITY changed). */
  verifyEach: boolean;
  todo: Message[];
}

export interface SliceTarget {
  copyId: number;
  mailboxId: number;
  /** The old account, "host:port user": the key of its folders' progress. */
  source: string;
}

/** Folders that hold no messages (\Noselect) or are not there (\NonExistent) are not copied. */
const copyable = (folder: ListResponse) => !folder.flags.has('\\Noselect') && !folder.flags.has('\\NonExistent');

/** A folder's name on our server: the same levels, with our separator. */
function targetOf(folder: ListResponse, separator: string): string {
  if (folder.path.toUpperCase() === 'INBOX') return 'INBOX';
  const levels = folder.delimiter ? folder.path.split(folder.delimiter) : [folder.path];
  return levels.map((level) => level.split(separator).join('_')).join(separator);
}

const metaOf = (m: FetchMessageObject): Message => ({
  uid: m.uid,
  // \Recent belongs to the session, not to the message.
  flags: [...(m.flags ?? [])].filter((flag) => flag !== '\\Recent'),
  internalDate: m.internalDate instanceof Date ? m.internalDate : new Date(m.internalDate ?? Date.now()),
  size: m.size ?? 0,
  messageId: m.envelope?.messageId || undefined,
});

/** Reads what is left to copy, and writes the copy's totals. */
async function plan(db: Db, target: SliceTarget, source: ImapFlow, store: ImapFlow): Promise<FolderPlan[]> {
  const separator = (await store.list()).find((f) => f.delimiter)?.delimiter ?? '/';
  const known = new Map(
    (await db.selectFrom('mail_copy_folder').select(['id', 'folder', 'uid_validity', 'last_uid', 'pending_uid']).where('mailbox_id', '=', target.mailboxId).where('source', '=', target.source).execute()).map((row) => [row.folder, row]),
  );
  const plans: FolderPlan[] = [];
  for (const folder of (await source.list()).filter(copyable)) {
    const box = await source.mailboxOpen(folder.path, { readOnly: true });
    const uidValidity = Number(box.uidValidity);
    const state = known.get(folder.path);
    const same = state !== undefined && Number(state.uid_validity) === uidValidity;
    const last = same ? Number(state.last_uid) : 0;
    const todo: Message[] = [];
    if (box.exists > 0) {
      // "n:*" also answers the last message when no UID is n or more: hence the filter.
      for await (const m of source.fetch(`${last + 1}:*`, { uid: true, flags: true, internalDate: true, size: true, envelope: true }, { uid: true })) if (m.uid > last) todo.push(metaOf(m));
    }
    todo.sort((a, b) => a.uid - b.uid);
    plans.push({
      path: folder.path,
      target: targetOf(folder, separator),
      uidValidity,
      messages: box.exists,
      stateId: state?.id,
      pendingUid: same ? (state.pending_uid === null ? null : Number(state.pending_uid)) : null,
      verifyEach: state !== undefined && !same,
      todo,
    });
  }
  const total = plans.reduce((n, p) => n + p.messages, 0);
  const done = plans.reduce((n, p) => n + p.messages - p.todo.length, 0);
  await db.updateTable('mail_copy').set({ state: 'running', total_messages: total, done_messages: done, folders: plans.length, updated_at: now() }).where('id', '=', target.copyId).execute();
  return plans;
}

/** Our folder for an old one, made when missing. */
async function ensureFolder(store: ImapFlow, plan: FolderPlan, existing: Set<string>) {
  if (existing.has(plan.target)) return;
  try {
    await store.mailboxCreate(plan.target);
  } catch (error) {
    if ((error as { serverResponseCode?: string }).serverResponseCode !== 'ALREADYEXISTS') throw new CopyFailure('error.mail_copy_folder', `${plan.target}: ${detailOf(error)}`);
  }
  existing.add(plan.target);
}

/** Whether the message is already in the selected folder of our server. */
async function present(store: ImapFlow, m: Message): Promise<boolean> {
  if (m.messageId) {
    const found = await store.search({ header: { 'message-id': m.messageId } }, { uid: true });
    return Array.isArray(found) && found.length > 0;
  }
  const sameSize = await store.search({ larger: m.size - 1, smaller: m.size + 1 }, { uid: true });
  if (!Array.isArray(sameSize) || sameSize.length === 0) return false;
  for await (const found of store.fetch(sameSize.join(','), { uid: true, internalDate: true }, { uid: true })) {
    const at = found.internalDate instanceof Date ? found.internalDate.getTime() : Date.parse(String(found.internalDate));
    if (Math.abs(at - m.internalDate.getTime()) < 1000) return true;
  }
  return false;
}

async function appendTo(store: ImapFlow, folder: string, content: Buffer, m: Message) {
  try {
    await store.append(folder, content, m.flags, m.internalDate);
  } catch (error) {
    const e = error as { serverResponseCode?: string; responseText?: string };
    if (e.serverResponseCode === 'OVERQUOTA' || /quota/i.test(e.responseText ?? '')) throw new CopyFailure('error.mail_copy_quota', detailOf(error));
    throw error;
  }
}

/** Messages fetched and recorded together: at most 25, or 8 MiB (one message may be larger alone). */
function* batchesOf(todo: Message[]): Generator<Message[]> {
  let batch: Message[] = [];
  let bytes = 0;
  for (const m of todo) {
    if (batch.length > 0 && (batch.length >= 25 || bytes + m.size > 8 * 1024 * 1024)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(m);
    bytes += m.size;
  }
  if (batch.length > 0) yield batch;
}

/** Copies until everything is there ('finished'), or the deadline passes or the process stops ('more'). */
export async function copySlice(db: Db, target: SliceTarget, source: ImapFlow, store: ImapFlow, deadline: number, stopping?: AbortSignal): Promise<'finished' | 'more'> {
  const plans = await plan(db, target, source, store);
  const existing = new Set((await store.list()).map((f) => f.path));
  for (const folder of plans) {
    await ensureFolder(store, folder, existing);
    let stateId = folder.stateId;
    if (stateId === undefined) {
      const row = await db
        .insertInto('mail_copy_folder')
        .values({ mailbox_id: target.mailboxId, source: target.source, folder: folder.path, uid_validity: folder.uidValidity, last_uid: 0, pending_uid: null, updated_at: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      stateId = Number(row.id);
    } else if (folder.verifyEach) {
      await db.updateTable('mail_copy_folder').set({ uid_validity: folder.uidValidity, last_uid: 0, pending_uid: null, updated_at: now() }).where('id', '=', stateId).execute();
    }
    if (folder.todo.length === 0) continue;
    await source.mailboxOpen(folder.path, { readOnly: true });
    await store.mailboxOpen(folder.target);
    for (const batch of batchesOf(folder.todo)) {
      if (Date.now() > deadline || stopping?.aborted) return 'more';
      const last = batch[batch.length - 1].uid;
      // Before the APPENDs: "up to this UID may already be there". A run cut short before the
      // record below looks for each of these in the mailbox before appending it again.
      await db.updateTable('mail_copy_folder').set({ pending_uid: last }).where('id', '=', stateId).execute();
      const bodies = new Map<number, Buffer>();
      for await (const m of source.fetch(batch.map((m) => m.uid).join(','), { uid: true, source: true }, { uid: true })) if (m.source) bodies.set(m.uid, m.source);
      let appended = 0;
      for (const m of batch) {
        const doubtful = folder.verifyEach || (folder.pendingUid !== null && m.uid <= folder.pendingUid);
        const body = bodies.get(m.uid);
        // Gone from the old server since the list was read, or already here: nothing to copy.
        if (!body || (doubtful && (await present(store, m)))) continue;
        await appendTo(store, folder.target, body, m);
        appended++;
      }
      const id = stateId;
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('mail_copy_folder').set({ last_uid: last, pending_uid: null, updated_at: now() }).where('id', '=', id).execute();
        await trx
          .updateTable('mail_copy')
          .set((eb) => ({ done_messages: eb('done_messages', '+', batch.length), copied_messages: eb('copied_messages', '+', appended), updated_at: now() }))
          .where('id', '=', target.copyId)
          .execute();
      });
    }
  }
  return 'finished';
}
