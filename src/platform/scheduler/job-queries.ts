import { scheduledJobRepository } from './scheduled-job.repository.ts';

/*
 * The scheduled_jobs table belongs to this module: what other modules need of it, through
 * these functions rather than its repository (docs/architecture.md).
 */

/** Deletes jobs done before `before` (retention); returns how many. */
export function pruneDoneJobs(...args: Parameters<typeof scheduledJobRepository.pruneDone>): ReturnType<typeof scheduledJobRepository.pruneDone> {
  return scheduledJobRepository.pruneDone(...args);
}
