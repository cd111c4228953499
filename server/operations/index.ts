/**
 * Operations: what running Maildesk for years needs. The `maildesk` command line's own commands
 * (backup, restore, doctor, operator), Prometheus metrics at /metrics, /health and /ready for
 * load balancers, and the job that moves files an earlier release left on disk into the file
 * store every instance reaches (server/core/files.ts). The guide: docs/operations.md.
 */
import { defineCapability } from '../core/capability.js';
import { backupCommands } from './backup.js';
import { doctorCommand } from './doctor.js';
import { registerHealth } from './health-routes.js';
import { registerMetrics } from './metrics.js';
import { moveFilesJob, moveFilesLeftOnDisk } from './move-files.js';
import { operatorCommands } from './operator-commands.js';

export const operations = defineCapability({
  name: 'operations',
  routes(app, services) {
    registerMetrics(app, services);
    registerHealth(app, services);
  },
  jobs: [moveFilesJob],
  started: moveFilesLeftOnDisk,
  commands: [...backupCommands, doctorCommand, ...operatorCommands],
});
