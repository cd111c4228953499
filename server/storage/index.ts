/**
 * Storage: the capacity blocks a customer holds (granted by an operator, or bought), the sum of
 * mailbox quotas held against them, and the reminders and notices as a block's expiry nears.
 */
import { storage as storageResource } from '../../resources/storage.js';
import { defineCapability } from '../core/capability.js';
import { defineSchedule } from '../core/jobs.js';
import { sendDueNotices } from './expiry.js';
import { storageBehaviour } from './storage.js';
import { storageCalls } from './storage-calls.js';

export const storage = defineCapability({
  name: 'storage',
  resources: [{ declaration: storageResource, behaviour: storageBehaviour }],
  calls: storageCalls,
  schedules: [
    // Reminders and expiry notices that are due; every ten minutes, once across instances.
    defineSchedule({
      name: 'storage.notices',
      cron: '*/10 * * * *',
      handler: async ({ services }) => {
        await sendDueNotices(services);
      },
    }),
  ],
});
