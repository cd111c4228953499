/**
 * A capability of the product (accounts, mail, shop, support, …) as the app sees it: one
 * manifest in its folder's index.ts. The app, the start-up and the job queue loop over the
 * list in server/capabilities.ts; nothing else central names a capability.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.js';
import type { Authenticators, CallSpec, KeyAuthenticators } from './calls.js';
import type { Command } from './command.js';
import type { HousekeepingStep, JobSpec, ScheduleSpec } from './jobs.js';
import type { ServerResource } from './resource-calls.js';
import type { Services } from './services.js';

export interface Capability {
  name: string;
  /** Its declared resources (resources/), each with what is special about it here; their calls are derived. */
  resources?: ServerResource[];
  /** Its calls beyond the derived ones. */
  calls?: CallSpec<any, any>[];
  /** The areas whose tokens it resolves to a caller. */
  authenticators?: Partial<Authenticators>;
  /** The areas whose API keys (Authorization: Bearer) it resolves to a caller. */
  keyAuthenticators?: KeyAuthenticators;
  /** Routes outside the API's envelope (a payment provider's webhooks, mail programs' autoconfiguration). */
  routes?(app: FastifyInstance, services: Services): Promise<void> | void;
  jobs?: JobSpec<any>[];
  schedules?: ScheduleSpec[];
  /** What the hourly housekeeping removes of its tables. */
  housekeeping?: HousekeepingStep[];
  /** Rows the app needs before it serves (default e-mail templates). */
  prepare?(db: Db): Promise<void>;
  /** Work to enqueue once the app has started (e.g. moving files left by an earlier release); idempotent. */
  started?(services: Services): Promise<void>;
  /** Its commands of the `maildesk` command line (server/operations/cli.ts): backup, doctor, imports, … */
  commands?: Command[];
}

export const defineCapability = (capability: Capability): Capability => capability;
