import { defineServiceModule, LOG, token } from '../lib/index.ts';
import { CLOCK } from '../time/index.ts';
import { DATABASE } from '../db/index.ts';
import { CONFIG } from '../config/index.ts';
import { COORDINATION } from '../coordination/index.ts';
import { Scheduler as SchedulerT, defaultNodeId } from './scheduler.service.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export {
  DEFAULT_JOB_LEASE_MS,
  DEFAULT_SCHEDULER_POLL_MS,
  JobClaimLost,
  SCHEDULER_WAKE_CHANNEL,
  Scheduler,
  defaultNodeId,
  type JobHandler,
  type JobRun,
  type ScheduledJob,
  type SchedulerOptions,
} from './scheduler.service.ts';
export { type ScheduledJobRow } from './scheduled-job.repository.ts';
export { pruneDoneJobs } from './job-queries.ts';

/** Durable timers that fire once cluster-wide. */
export const SCHEDULER = token<SchedulerT>('scheduler');
/** This process's node id in job claims; tests and the cluster roles may name it. */
export const NODE_ID = token<string>('nodeId');

export const schedulerServices = defineServiceModule({
  name: 'scheduler',
  provide(c) {
    // in cluster mode the node's configured id (leases, logs and metrics name it the same way);
    // otherwise one id per context: several contexts in one process (tests) are several nodes
    c.provide(NODE_ID, (c) => (c.get(CONFIG).cluster ? c.get(CONFIG).nodeId : defaultNodeId()));
    c.provide(
      SCHEDULER,
      (c) =>
        new SchedulerT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          nodeId: c.get(NODE_ID),
          wakeSignal: c.get(COORDINATION).wakeSignal,
          log: c.get(LOG),
        }),
    );
  },
});
