/**
 * Earlier releases kept ticket attachments in ATTACHMENT_DIR on one instance's disk. This job
 * moves them into the file store (services.files), under the same names their records hold:
 * a file already there is not written again, and a file is deleted from disk only once it is
 * kept, so the job can stop anywhere and run again. Until it has run, downloads read the disk.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { defineJob } from '../core/jobs.js';
import type { Services } from '../core/services.js';
import { storedNamePattern } from '../support/attachments.js';

async function filesOnDisk(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  return names.filter((name) => storedNamePattern.test(name));
}

/** Moves every attachment left on disk into the file store; returns how many it moved. */
export async function moveFilesFromDisk(services: Pick<Services, 'files' | 'config'>): Promise<number> {
  const dir = services.config.attachmentDir;
  let moved = 0;
  for (const name of await filesOnDisk(dir)) {
    const file = path.join(dir, name);
    const data = await fs.readFile(file).catch(() => undefined);
    if (!data) continue; // moved meanwhile by another instance
    await services.files.put(name, data);
    await fs.rm(file, { force: true });
    moved++;
  }
  return moved;
}

export const moveFilesJob = defineJob<Record<string, never>>({
  name: 'files.move_from_disk',
  retryDelaySeconds: 60,
  // Every attachment an older release kept, one after another: minutes on a large desk.
  lane: 'long',
  async handler(_payload, { services }) {
    const moved = await moveFilesFromDisk(services);
    if (moved) services.logger.info({ moved, from: services.config.attachmentDir, to: services.files.kind }, 'files moved into the file store');
  },
});

/** At start: files left on disk are moved by a job (once per hour at most: instances of an older release may still be writing some). */
export async function moveFilesLeftOnDisk(services: Services): Promise<void> {
  if ((await filesOnDisk(services.config.attachmentDir)).length === 0) return;
  const hour = new Date().toISOString().slice(0, 13);
  await services.jobs.enqueue(services.db, moveFilesJob, {}, { uniqueKey: hour });
}
