/**
 * DMARC aggregate and TLS reports: received by mail at the reporting address (REPORTS_ADDRESS,
 * named in every domain's DMARC record), handed over by the mail server, parsed with caps and
 * stored per hosted domain once; shown per domain as pictures with advice in plain words, and
 * across the installation to operators; the DMARC policy a customer tightens.
 */
import { defineCapability } from '../core/capability.js';
import { forgetOldReports } from './housekeeping.js';
import { registerReportRoutes } from './mail-server-routes.js';
import { reportCalls } from './reports-calls.js';

export const reports = defineCapability({
  name: 'reports',
  calls: reportCalls,
  routes: registerReportRoutes,
  housekeeping: [forgetOldReports],
});
