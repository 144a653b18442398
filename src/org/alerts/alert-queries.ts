import { alertRepository } from './alert.repository.ts';

/*
 * The alerts table belongs to this module: what other modules need of it, through these
 * functions rather than its repository (docs/architecture.md).
 */

/** The tenant's alert, if any. */
export function findAlert(...args: Parameters<typeof alertRepository.findForTenant>): ReturnType<typeof alertRepository.findForTenant> {
  return alertRepository.findForTenant(...args);
}

export function listAlertsOfIncident(...args: Parameters<typeof alertRepository.listByIncident>): ReturnType<typeof alertRepository.listByIncident> {
  return alertRepository.listByIncident(...args);
}
